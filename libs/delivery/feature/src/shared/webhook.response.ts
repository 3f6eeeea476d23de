import { ApiProperty } from '@nestjs/swagger';

/** The four flags of the registration (docs/API.md section 7). */
export class EventosWebhook {
  @ApiProperty({ description: 'atendimento.criado' }) atendimentoCriado: boolean;
  @ApiProperty({ description: 'atendimento.mensagem' }) atendimentoMensagem: boolean;
  @ApiProperty({ description: 'atendimento.encerrado' }) atendimentoEncerrado: boolean;
  @ApiProperty({ description: 'aplicativo.removido' }) aplicativo: boolean;
}

export class WebhookResponse {
  @ApiProperty({ format: 'uuid' }) idWebhook: string;
  @ApiProperty({ example: 'https://minhaloja.example/webhooks/trilha' }) url: string;
  @ApiProperty({ type: EventosWebhook }) eventos: EventosWebhook;
  @ApiProperty({ format: 'date-time' }) criadoEm: string;
}

export class WebhookCadastradoResponse extends WebhookResponse {
  @ApiProperty({
    description: 'Segredo de assinatura (Standard Webhooks), mostrado só aqui: verifique `webhook-signature` com ele.',
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  })
  segredo: string;
}
