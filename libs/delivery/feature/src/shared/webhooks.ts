import type { EntityManager } from 'typeorm';
import type { FlagsEvento } from '@trilha/delivery-domain';
import type { WebhookResponse } from './webhook.response';

/** A store's webhook registration, one per store (table `webhooks`). */
export interface Webhook {
  idLoja: number;
  idWebhook: string;
  url: string;
  eventos: FlagsEvento;
  segredo: string;
  criadoEm: Date;
}

interface WebhookRow {
  id_loja: number;
  id_webhook: string;
  url: string;
  eventos: FlagsEvento;
  segredo: string;
  criado_em: Date;
}

const fromRow = (row: WebhookRow): Webhook => ({
  idLoja: row.id_loja,
  idWebhook: row.id_webhook,
  url: row.url,
  eventos: row.eventos,
  segredo: row.segredo,
  criadoEm: row.criado_em,
});

export async function webhookDaLoja(manager: Pick<EntityManager, 'query'>, idLoja: number): Promise<Webhook | undefined> {
  const [row] = await manager.query(`SELECT * FROM webhooks WHERE id_loja = $1`, [idLoja]);
  return row && fromRow(row);
}

/** The registration as GET /webhook shows it: without the secret. */
export function webhookResponse(webhook: Webhook): WebhookResponse {
  return { idWebhook: webhook.idWebhook, url: webhook.url, eventos: webhook.eventos, criadoEm: webhook.criadoEm.toISOString() };
}
