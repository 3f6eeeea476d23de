import type { EntityManager } from 'typeorm';
import type { StatusEntrega } from '@trilha/delivery-domain';
import type { EntregaResponse, TentativaDetalhadaResponse, TentativaResponse } from './entrega.response';

/**
 * A delivery's columns as the log shows it. `proxima_tentativa`: `proxima_em` is the next
 * attempt's time, except while an attempt holds the delivery's lease (it is then the lease's end).
 */
export const COLUNAS_ENTREGA = `id_entrega, id_evento, evento, status, ocorrido_em, CASE WHEN lease IS NULL THEN proxima_em END AS proxima_tentativa`;

/** A row of COLUNAS_ENTREGA; its times are text when it comes through json_agg. */
export interface EntregaRow {
  id_entrega: string;
  id_evento: string;
  evento: string;
  status: StatusEntrega;
  ocorrido_em: Date | string;
  proxima_tentativa: Date | string | null;
}

interface TentativaRow {
  id_entrega: string;
  numero: number;
  data_hora: Date;
  status_http: number | null;
  duracao_ms: number;
  erro: string | null;
}

interface TentativaDetalhadaRow extends TentativaRow {
  url: string | null;
  cabecalhos: Record<string, string> | null;
  resposta: string | null;
}

const iso = (data: Date | string) => new Date(data).toISOString();

const tentativaResponse = (row: TentativaRow): TentativaResponse => ({
  numero: row.numero,
  dataHora: row.data_hora.toISOString(),
  statusHttp: row.status_http,
  duracaoMs: row.duracao_ms,
  erro: row.erro,
});

export const tentativaDetalhadaResponse = (row: TentativaDetalhadaRow): TentativaDetalhadaResponse => ({
  ...tentativaResponse(row),
  url: row.url,
  cabecalhos: row.cabecalhos,
  resposta: row.resposta,
});

export const entregaResponse = <T extends TentativaResponse>(row: EntregaRow, tentativas: T[]) => ({
  idEntrega: row.id_entrega,
  idEvento: row.id_evento,
  evento: row.evento,
  status: row.status,
  ocorridoEm: iso(row.ocorrido_em),
  proximaTentativa: row.proxima_tentativa === null ? null : iso(row.proxima_tentativa),
  tentativas,
});

/** Deliveries of a store with their attempts in order, as the deliveries log shows them. */
export async function entregasComTentativas(manager: Pick<EntityManager, 'query'>, rows: EntregaRow[]): Promise<EntregaResponse[]> {
  const tentativas: TentativaRow[] = rows.length
    ? await manager.query(`SELECT id_entrega, numero, data_hora, status_http, duracao_ms, erro FROM tentativas WHERE id_entrega = ANY($1::uuid[]) ORDER BY numero`, [rows.map((row) => row.id_entrega)])
    : [];
  return rows.map((row) => entregaResponse(row, tentativas.filter((tentativa) => tentativa.id_entrega === row.id_entrega).map(tentativaResponse)));
}

/** One delivery's attempts in order, with what each sent and got back. */
export async function tentativasDetalhadas(manager: Pick<EntityManager, 'query'>, idEntrega: string): Promise<TentativaDetalhadaResponse[]> {
  const rows: TentativaDetalhadaRow[] = await manager.query(`SELECT * FROM tentativas WHERE id_entrega = $1 ORDER BY numero`, [idEntrega]);
  return rows.map(tentativaDetalhadaResponse);
}
