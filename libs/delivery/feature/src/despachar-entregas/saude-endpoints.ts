import type { EntityManager } from 'typeorm';
import { evoluirSaude, motivoDesativacao, type SaudeWebhook, type TentativaFeita } from '@trilha/delivery-domain';
import { writeAtCommit, type PreparedStatement, type Statement } from '@trilha/event-store';
import { desativarWebhook } from '../shared';

// The health's writes at every record of attempts, prepared once per connection.
const SAUDE: PreparedStatement = {
  name: 'delivery_saude',
  text: `UPDATE webhooks w SET ultima_entrega = s.ultima_entrega, ultima_falha = s.ultima_falha, ultimo_erro = s.ultimo_erro,
           falhas_seguidas = s.falhas_seguidas, falhando_desde = s.falhando_desde
         FROM unnest($1::int[], $2::uuid[], $3::timestamptz[], $4::timestamptz[], $5::text[], $6::int[], $7::timestamptz[])
           AS s(id_loja, id_webhook, ultima_entrega, ultima_falha, ultimo_erro, falhas_seguidas, falhando_desde)
         WHERE w.id_loja = s.id_loja AND w.id_webhook = s.id_webhook`,
};
const CONTAGEM_POR_HORA: PreparedStatement = {
  name: 'delivery_contagem_por_hora',
  text: `INSERT INTO tentativas_por_hora (id_loja, hora, sucessos, falhas)
         SELECT id_loja, date_trunc('hour', em), count(*) FILTER (WHERE ok), count(*) FILTER (WHERE NOT ok)
         FROM unnest($1::int[], $2::timestamptz[], $3::boolean[]) AS t(id_loja, em, ok)
         GROUP BY 1, 2
         ON CONFLICT (id_loja, hora) DO UPDATE SET sucessos = tentativas_por_hora.sucessos + EXCLUDED.sucessos, falhas = tentativas_por_hora.falhas + EXCLUDED.falhas`,
};
const CONTAGENS_ANTIGAS: PreparedStatement = {
  name: 'delivery_contagens_antigas',
  text: `DELETE FROM tentativas_por_hora WHERE id_loja = ANY($1::int[]) AND hora < now() - interval '25 hours'`,
};

/** A finished attempt to a webhook, as its endpoint's health counts it. */
export interface TentativaAoEndpoint extends TentativaFeita {
  idLoja: number;
  idWebhook: string;
}

export interface SaudeRow {
  id_loja: number;
  id_webhook: string;
  ativo: boolean;
  ultima_entrega: Date | null;
  ultima_falha: Date | null;
  ultimo_erro: string | null;
  falhas_seguidas: number;
  falhando_desde: Date | null;
}

const ms = (data: Date | null) => (data === null ? null : data.getTime());
const data = (epoch: number | null) => (epoch === null ? null : new Date(epoch));

const SAUDE_DOS_ENDPOINTS: PreparedStatement = {
  name: 'delivery_saude_dos_endpoints',
  text: `SELECT id_loja, id_webhook, ativo, ultima_entrega, ultima_falha, ultimo_erro, falhas_seguidas, falhando_desde
         FROM webhooks WHERE id_loja = ANY($1::int[])`,
};

/** The stores' endpoints' health as `saudeAposTentativas` reads it: a statement sent with the recording transaction's BEGIN. */
export function saudeDosEndpoints(idsLoja: number[]): Statement {
  return { statement: SAUDE_DOS_ENDPOINTS, params: [[...new Set(idsLoja)]] };
}

/** What a batch of attempts does to the health of the endpoints it reached (`saudeAposTentativas`). */
export interface SaudeAposTentativas {
  tentativas: TentativaAoEndpoint[];
  atualizadas: { row: SaudeRow; saude: SaudeWebhook; motivo: string | null }[];
}

/**
 * Each endpoint's health (GET /webhook `saude`) after `tentativas`, from `rows`, read under the
 * stores' locks (`saudeDosEndpoints`), and the reason to deactivate a webhook whose attempts say
 * so (a 410, or failing for `desativarAposMs`). Attempts to a registration replaced meanwhile
 * count for nothing.
 */
export function saudeAposTentativas(rows: SaudeRow[], tentativas: TentativaAoEndpoint[], desativarAposMs: number, agora: number): SaudeAposTentativas {
  const atualizadas: SaudeAposTentativas['atualizadas'] = [];
  for (const row of rows) {
    const doWebhook = tentativas.filter((t) => t.idLoja === row.id_loja && t.idWebhook === row.id_webhook).sort((a, b) => a.em - b.em);
    if (doWebhook.length === 0) continue;
    const antes: SaudeWebhook = {
      ultimaEntrega: ms(row.ultima_entrega),
      ultimaFalha: ms(row.ultima_falha),
      ultimoErro: row.ultimo_erro,
      falhasSeguidas: row.falhas_seguidas,
      falhandoDesde: ms(row.falhando_desde),
    };
    const saude = doWebhook.reduce(evoluirSaude, antes);
    atualizadas.push({ row, saude, motivo: row.ativo ? motivoDesativacao(saude, doWebhook, desativarAposMs, agora) : null });
  }
  return { tentativas, atualizadas };
}

/**
 * Records the endpoints' health in the recording transaction: the health columns of `webhooks`
 * and the hourly counts of `tentativas_por_hora` (older than 25 h are dropped), written at its
 * COMMIT. Then deactivates the webhooks whose attempts say so, at once.
 */
export async function registrarSaude(manager: EntityManager, { tentativas, atualizadas }: SaudeAposTentativas): Promise<void> {
  if (atualizadas.length === 0) return;
  const lojas = [...new Set(tentativas.map((tentativa) => tentativa.idLoja))];
  await writeAtCommit(
    manager,
    SAUDE,
    [
      atualizadas.map(({ row }) => row.id_loja),
      atualizadas.map(({ row }) => row.id_webhook),
      atualizadas.map(({ saude }) => data(saude.ultimaEntrega)),
      atualizadas.map(({ saude }) => data(saude.ultimaFalha)),
      atualizadas.map(({ saude }) => saude.ultimoErro),
      atualizadas.map(({ saude }) => saude.falhasSeguidas),
      atualizadas.map(({ saude }) => data(saude.falhandoDesde)),
    ],
  );
  const contadas = tentativas.filter((t) => atualizadas.some(({ row }) => row.id_loja === t.idLoja && row.id_webhook === t.idWebhook));
  await writeAtCommit(
    manager,
    CONTAGEM_POR_HORA,
    [contadas.map((t) => t.idLoja), contadas.map((t) => new Date(t.em)), contadas.map((t) => t.ok)],
  );
  await writeAtCommit(manager, CONTAGENS_ANTIGAS, [lojas]);
  for (const { row, motivo } of atualizadas) {
    if (motivo !== null) await desativarWebhook(manager, row.id_loja, row.id_webhook, motivo);
  }
}
