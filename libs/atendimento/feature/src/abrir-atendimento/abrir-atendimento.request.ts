import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsEmail, IsIn, IsNotEmpty, IsObject, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { CANAIS, TIPOS_ATENDIMENTO, MENSAGEM_MAX } from '@trilha/contracts';

export class DadosClienteAtendimentoRequest {
  @ApiProperty({ maxLength: 150, example: 'Maria Silva' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(150)
  nome: string;

  @ApiPropertyOptional({ maxLength: 30, example: '+5511999990000' })
  @IsOptional()
  @IsString()
  @MaxLength(30)
  telefone?: string;

  @ApiPropertyOptional({ maxLength: 150, example: 'maria@example.com' })
  @IsOptional()
  @IsEmail()
  @MaxLength(150)
  email?: string;
}

export class AbrirAtendimentoRequest {
  @ApiProperty({ enum: CANAIS })
  @IsIn(CANAIS)
  canal: (typeof CANAIS)[number];

  @ApiProperty({ enum: TIPOS_ATENDIMENTO })
  @IsIn(TIPOS_ATENDIMENTO)
  tipo: (typeof TIPOS_ATENDIMENTO)[number];

  @ApiProperty({ type: DadosClienteAtendimentoRequest })
  @IsObject()
  @ValidateNested()
  @Type(() => DadosClienteAtendimentoRequest)
  dadosCliente: DadosClienteAtendimentoRequest;

  @ApiPropertyOptional({ maxLength: MENSAGEM_MAX, description: 'Primeira mensagem do cliente: registrada como `entrada` logo após a abertura.' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(MENSAGEM_MAX)
  mensagem?: string;

  @ApiPropertyOptional({ maxLength: 32, description: 'Pedido de que o atendimento trata.' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(32)
  idPedido?: string;
}
