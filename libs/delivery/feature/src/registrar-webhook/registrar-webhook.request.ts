import { ApiProperty } from '@nestjs/swagger';
import { IsBoolean, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';

export class RegistrarWebhookRequest {
  @ApiProperty({ maxLength: 2048, example: 'https://minhaloja.example/webhooks/trilha', description: 'URL HTTPS pública que responde 200 à verificação.' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(2048)
  url: string;

  @ApiProperty({ required: false, default: true, description: 'Receber atendimento.criado.' })
  @IsOptional()
  @IsBoolean()
  atendimentoCriado?: boolean;

  @ApiProperty({ required: false, default: true, description: 'Receber atendimento.mensagem.' })
  @IsOptional()
  @IsBoolean()
  atendimentoMensagem?: boolean;

  @ApiProperty({ required: false, default: true, description: 'Receber atendimento.encerrado.' })
  @IsOptional()
  @IsBoolean()
  atendimentoEncerrado?: boolean;

  @ApiProperty({ required: false, default: true, description: 'Receber aplicativo.removido.' })
  @IsOptional()
  @IsBoolean()
  aplicativo?: boolean;
}
