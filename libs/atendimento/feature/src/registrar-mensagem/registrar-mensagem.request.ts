import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { DIRECOES, MENSAGEM_MAX } from '@trilha/contracts';

export class RegistrarMensagemRequest {
  @ApiProperty({ enum: DIRECOES, description: '`entrada`: do cliente para a loja; `saida`: da loja ou de um agente para o cliente.' })
  @IsIn(DIRECOES)
  direcao: (typeof DIRECOES)[number];

  @ApiProperty({ maxLength: 100, example: 'atendente:ana' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  remetente: string;

  @ApiProperty({ maxLength: MENSAGEM_MAX })
  @IsString()
  @IsNotEmpty()
  @MaxLength(MENSAGEM_MAX)
  mensagem: string;
}
