import type { EntityManager } from 'typeorm';
import type { StatusEntrega } from '@trilha/delivery-domain';
import type { EntregaResponse, TentativaResponse } from './entrega.response';

export interface EntregaRow {
  id_entrega: string;
  id_evento: string;
  evento: string;
  status: StatusEntrega;
}

interface TentativaRow {
  id_entrega: string;
  numero: number;
  data_hora: Date;
  status_http: number | null;
  duracao_ms: number;
  erro: string | null;
}

const tentativaResponse = (row: TentativaRow): TentativaResponse => ({
  numero: row.numero,
  dataHora: row.data_hora.toISOString(),
  statusHttp: row.status_http,
  duracaoMs: row.duracao_ms,
  erro: row.erro,
});

/** Deliveries of a store with their attempts in order, as the deliveries log shows them. */
export async function entregasComTentativas(manager: Pick<EntityManager, 'query'>, rows: EntregaRow[]): Promise<EntregaResponse[]> {
  const tentativas: TentativaRow[] = rows.length
    ? await manager.query(`SELECT * FROM tentativas WHERE id_entrega = ANY($1::uuid[]) ORDER BY numero`, [rows.map((row) => row.id_entrega)])
    : [];
  return rows.map((row) => ({
    idEntrega: row.id_entrega,
    idEvento: row.id_evento,
    evento: row.evento,
    status: row.status,
    tentativas: tentativas.filter((tentativa) => tentativa.id_entrega === row.id_entrega).map(tentativaResponse),
  }));
}
