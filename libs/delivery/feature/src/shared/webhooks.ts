import type { EntityManager } from 'typeorm';
import { flagsComPadrao, taxaSucesso, type FlagsEvento, type SaudeWebhook, type Segredos } from '@trilha/delivery-domain';
import type { WebhookResponse } from './webhook.response';

/** A store's webhook registration, one per store (table `webhooks`). */
export interface Webhook extends Segredos {
  idLoja: number;
  idWebhook: string;
  url: string;
  eventos: FlagsEvento;
  criadoEm: Date;
  ativo: boolean;
}

/** The registration as GET /webhook reads it: with its health and why it was deactivated. */
export interface WebhookComSaude extends Webhook {
  saude: SaudeWebhook;
  motivoDesativacao: string | null;
  desativadoEm: Date | null;
  sucessos24h: number;
  falhas24h: number;
}

export interface WebhookRow {
  id_loja: number;
  id_webhook: string;
  url: string;
  /** As stored: a registration made before a flag existed lacks its key. */
  eventos: Partial<FlagsEvento>;
  segredo: string;
  criado_em: Date;
  ativo: boolean;
  segredo_anterior: string | null;
  segredo_anterior_ate: Date | null;
}

interface WebhookComSaudeRow extends WebhookRow {
  motivo_desativacao: string | null;
  desativado_em: Date | null;
  ultima_entrega: Date | null;
  ultima_falha: Date | null;
  ultimo_erro: string | null;
  falhas_seguidas: number;
  falhando_desde: Date | null;
  sucessos_24h: number;
  falhas_24h: number;
}

const ms = (data: Date | null) => (data === null ? null : data.getTime());

export const webhookFromRow = (row: WebhookRow): Webhook => ({
  idLoja: row.id_loja,
  idWebhook: row.id_webhook,
  url: row.url,
  eventos: flagsComPadrao(row.eventos),
  segredo: row.segredo,
  criadoEm: row.criado_em,
  ativo: row.ativo,
  segredoAnterior: row.segredo_anterior,
  segredoAnteriorAte: ms(row.segredo_anterior_ate),
});

export async function webhookDaLoja(manager: Pick<EntityManager, 'query'>, idLoja: number): Promise<Webhook | undefined> {
  const [row] = await manager.query(`SELECT * FROM webhooks WHERE id_loja = $1`, [idLoja]);
  return row && webhookFromRow(row);
}

/** The webhook with its health; the success rate of the last 24 h from the hourly counts (at most 25 rows). */
export async function webhookComSaude(manager: Pick<EntityManager, 'query'>, idLoja: number): Promise<WebhookComSaude | undefined> {
  const [row]: WebhookComSaudeRow[] = await manager.query(
    `SELECT w.*, coalesce(h.sucessos, 0)::int AS sucessos_24h, coalesce(h.falhas, 0)::int AS falhas_24h
     FROM webhooks w
     LEFT JOIN LATERAL (
       SELECT sum(sucessos) AS sucessos, sum(falhas) AS falhas FROM tentativas_por_hora
       WHERE id_loja = w.id_loja AND hora > now() - interval '24 hours'
     ) h ON true
     WHERE w.id_loja = $1`,
    [idLoja],
  );
  if (!row) return undefined;
  return {
    ...webhookFromRow(row),
    saude: {
      ultimaEntrega: ms(row.ultima_entrega),
      ultimaFalha: ms(row.ultima_falha),
      ultimoErro: row.ultimo_erro,
      falhasSeguidas: row.falhas_seguidas,
      falhandoDesde: ms(row.falhando_desde),
    },
    motivoDesativacao: row.motivo_desativacao,
    desativadoEm: row.desativado_em,
    sucessos24h: row.sucessos_24h,
    falhas24h: row.falhas_24h,
  };
}

const iso = (epoch: number | null) => (epoch === null ? null : new Date(epoch).toISOString());

/** The registration as GET /webhook shows it: without the secret, with its health. */
export function webhookResponse(webhook: WebhookComSaude): WebhookResponse {
  return {
    idWebhook: webhook.idWebhook,
    url: webhook.url,
    eventos: webhook.eventos,
    criadoEm: webhook.criadoEm.toISOString(),
    saude: {
      ultimaEntrega: iso(webhook.saude.ultimaEntrega),
      ultimaFalha: iso(webhook.saude.ultimaFalha),
      ultimoErro: webhook.saude.ultimoErro,
      falhasSeguidas: webhook.saude.falhasSeguidas,
      taxaSucesso24h: taxaSucesso(webhook.sucessos24h, webhook.falhas24h),
      ativo: webhook.ativo,
      motivoDesativacao: webhook.motivoDesativacao,
      dataDesativacao: webhook.desativadoEm?.toISOString() ?? null,
    },
  };
}
