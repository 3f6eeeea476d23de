import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { MENSAGEM_MAX } from '@trilha/contracts';
import { ID_MAX } from '@trilha/ids';

export class ConversarRequest {
  @ApiProperty({ maxLength: MENSAGEM_MAX, example: 'Onde está meu pedido 1001?' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(MENSAGEM_MAX)
  mensagem: string;

  @ApiPropertyOptional({ maxLength: ID_MAX, description: 'Conversa com o agente a continuar; sem ele, uma nova começa.' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(ID_MAX)
  idConversa?: string;

  @ApiPropertyOptional({
    maxLength: ID_MAX,
    description: 'Atendimento aberto em que registrar a troca: a mensagem do cliente (entrada) e a resposta (saida, remetente `agente:<idAgente>`).',
  })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(ID_MAX)
  idAtendimento?: string;
}
