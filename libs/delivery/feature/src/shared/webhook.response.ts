import { ApiProperty } from '@nestjs/swagger';
import type { FlagsEvento } from '@trilha/delivery-domain';
import { propriedadesDasFlags } from './propriedades-das-flags';

/** The flags of the registration (docs/API.md section 7), one per notification. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- the interface below gives the type of the properties propriedadesDasFlags declares
export class EventosWebhook {}

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type -- the flags' properties, which propriedadesDasFlags declares below
export interface EventosWebhook extends FlagsEvento {}

propriedadesDasFlags(EventosWebhook, (notificacao) => [ApiProperty({ type: Boolean, description: notificacao.evento })]);

/** The endpoint's health, from the attempts made to it (GET /webhook). */
export class SaudeWebhookResponse {
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true, description: 'A última tentativa respondida com 200.' }) ultimaEntrega: string | null;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true, description: 'A última tentativa que falhou.' }) ultimaFalha: string | null;
  @ApiProperty({ type: 'string', nullable: true, description: 'O erro da última tentativa que falhou.', example: 'status 500, esperado 200' }) ultimoErro: string | null;
  @ApiProperty({ minimum: 0, description: 'Tentativas que falharam desde a última respondida com 200.' }) falhasSeguidas: number;
  @ApiProperty({ type: 'number', minimum: 0, maximum: 1, nullable: true, description: 'Parte das tentativas das últimas 24 h (contadas por hora) respondidas com 200; null sem tentativas.' })
  taxaSucesso24h: number | null;
  @ApiProperty({ description: 'false: o webhook foi desativado e os eventos vão para a fila até POST /webhook/ativar ou um novo cadastro.' }) ativo: boolean;
  @ApiProperty({ type: 'string', nullable: true, description: 'Por que o webhook foi desativado (410 Gone, ou falhas seguidas por tempo demais).' }) motivoDesativacao: string | null;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true, description: 'Quando o webhook foi desativado.' }) dataDesativacao: string | null;
}

export class WebhookResponse {
  @ApiProperty({ format: 'uuid' }) idWebhook: string;
  @ApiProperty({ example: 'https://minhaloja.example/webhooks/trilha' }) url: string;
  @ApiProperty({ type: EventosWebhook }) eventos: EventosWebhook;
  @ApiProperty({ format: 'date-time' }) criadoEm: string;
  @ApiProperty({ type: SaudeWebhookResponse }) saude: SaudeWebhookResponse;
}

export class WebhookCadastradoResponse extends WebhookResponse {
  @ApiProperty({
    description: 'Segredo de assinatura (Standard Webhooks), mostrado só aqui: verifique `webhook-signature` com ele.',
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  })
  segredo: string;
}

export class SegredoRotacionadoResponse {
  @ApiProperty({ description: 'O novo segredo de assinatura, mostrado só aqui.', example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }) segredo: string;
  @ApiProperty({ format: 'date-time', description: 'Quando o novo segredo foi criado.' }) criadoEm: string;
  @ApiProperty({
    format: 'date-time',
    description: 'Até quando cada entrega leva também a assinatura com o segredo anterior (em `webhook-signature`, depois da nova).',
  })
  antigoValidoAte: string;
}
