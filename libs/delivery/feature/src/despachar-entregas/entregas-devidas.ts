import type { DataSource } from 'typeorm';
import { corpoNotificacao, decidirAposTentativa, type EstadoEntrega } from '@trilha/delivery-domain';
import { compactTransaction, writeAtCommit, type PreparedStatement } from '@trilha/event-store';
import { novoId } from '@trilha/ids';
import { CANAL_ENTREGAS, consultaPreparada, travaDasLojas, travarLojas, COLUNAS_RETIRADA, enfileirarRetiradas, type EntregaRetirada, type ResultadoEnvio, webhookFromRow, type Webhook, type WebhookRow } from '../shared';
import { registrarSaude, saudeAposTentativas, saudeDosEndpoints, type SaudeRow } from './saude-endpoints';

/** A claimed attempt: the delivery as it was when claimed, and where it goes. */
export interface Claimed {
  idEntrega: string;
  idLoja: number;
  idEvento: string;
  corpo: string;
  traceparent: string | null;
  /** The first attempt's span, once it was made. */
  traceparentPrimeira: string | null;
  estado: EstadoEntrega;
  /** Part of a bulk recovery: its end makes the store's next recovered delivery due. */
  recuperar: boolean;
  /** The claim's token: only the holder of the current lease may end the attempt. */
  lease: string;
  webhook: Webhook;
}

/** A claimed delivery whose store has no active webhook any more. */
export interface Orfa {
  idEntrega: string;
  idLoja: number;
  lease: string;
}

export interface Claim {
  claimed: Claimed[];
  orfas: Orfa[];
  cheio: boolean;
  proximaEmMs?: number;
}

export interface Concluida {
  entrega: Claimed;
  resultado: ResultadoEnvio;
}

/** A claimed delivery as a statement returns it, with its store's webhook. */
interface ClaimedRow extends WebhookRow {
  id_entrega: string;
  id_evento: string;
  evento: string;
  data: object;
  traceparent: string | null;
  traceparent_primeira: string | null;
  status: EstadoEntrega['status'];
  tentativas: number;
  manual: boolean;
  recuperar: boolean;
  lease: string;
}

/** A row of the claim: the claimed delivery and its store's webhook (nulls when nothing was claimed), and the scan's figures. */
interface ClaimRow extends Omit<ClaimedRow, 'url'> {
  url: string | null;
  candidatas: number;
  proxima_em_ms: string | null;
}

/** A row of a batch's record: what it made due, and a store's next first attempt it claimed (nulls when none). */
type ConclusaoRow = { liberadas: number } & ({ id_entrega: string } & ClaimedRow | { id_entrega: null });

/** The stores this replica may give one more attempt to now, when a batch's record makes their next first attempt due. */
export interface Vagas {
  /** Whether the replica has room for attempts at all. */
  livre: boolean;
  /** Stores already at their cap of attempts at once. */
  lojasCheias: number[];
}

const claimedFrom = (row: ClaimedRow): Claimed => ({
  idEntrega: row.id_entrega,
  idLoja: row.id_loja,
  idEvento: row.id_evento,
  corpo: corpoNotificacao(row.evento, row.data),
  traceparent: row.traceparent,
  traceparentPrimeira: row.traceparent_primeira,
  estado: { status: row.status, tentativas: row.tentativas, manual: row.manual },
  recuperar: row.recuperar,
  lease: row.lease,
  webhook: webhookFromRow(row),
});

/**
 * The record of a batch of attempts, one statement: the attempts, the deliveries' next state,
 * the queue (a resent or recovered event that is delivered leaves it), and for each store whose
 * first attempt or recovered delivery this was (whatever its outcome), its next one made due, or
 * claimed here (`EntregasDevidas.concluir`). That one is read from the statement's snapshot,
 * where the attempt just ended still holds its lease, so it is never the row being updated here.
 * Prepared once per connection: planning it costs more than running it.
 */
const CONCLUSAO: PreparedStatement = {
  name: 'delivery_concluir',
  text: `WITH decididas AS (
           SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::smallint[], $5::timestamptz[], $6::boolean[], $7::boolean[],
                                $8::timestamptz[], $9::smallint[], $10::int[], $11::text[], $13::int[], $14::boolean[], $15::boolean[], $16::text[], $17::uuid[],
                                $21::text[], $22::jsonb[], $23::text[])
             AS d(id_entrega, lease, status, tentativas, proxima_em, para_fila, primeira, data_hora, status_http, duracao_ms, erro, id_loja, manual, recuperar, traceparent, id_documento,
                  url, cabecalhos, resposta)
         ), d AS (
           -- The store removed its webhook, or it was deactivated, during the attempt (both leave a
           -- delivery in flight to its attempt): a failed attempt is its last, and the event goes
           -- to the queue; a 200 delivered it. Never both.
           SELECT d.id_entrega, d.lease, d.tentativas, d.primeira, d.data_hora, d.status_http, d.duracao_ms, d.erro, d.manual, d.recuperar, d.traceparent, d.id_documento,
                  d.url, d.cabecalhos, d.resposta,
                  CASE WHEN removido THEN 'falhou' ELSE d.status END AS status,
                  CASE WHEN removido THEN NULL ELSE d.proxima_em END AS proxima_em,
                  d.para_fila OR removido AS para_fila
           FROM decididas d
           CROSS JOIN LATERAL (SELECT d.status = 'pendente' AND NOT EXISTS (SELECT 1 FROM webhooks w WHERE w.id_loja = d.id_loja AND w.ativo) AS removido) r
         ), atualizadas AS (
           UPDATE entregas e
           SET status = d.status, tentativas = d.tentativas, numero_tentativas = e.numero_tentativas + 1,
               proxima_em = d.proxima_em, lease = NULL, manual = false, recuperar = false,
               traceparent_primeira = coalesce(e.traceparent_primeira, d.traceparent)
           FROM d WHERE e.id_entrega = d.id_entrega AND e.lease = d.lease
           RETURNING e.id_entrega, e.numero_tentativas, e.id_loja, e.id_evento, e.evento, e.data
         ), registradas AS (
           INSERT INTO tentativas (id_entrega, numero, data_hora, status_http, duracao_ms, erro, url, cabecalhos, resposta)
           SELECT a.id_entrega, a.numero_tentativas, d.data_hora, d.status_http, d.duracao_ms, d.erro, d.url, d.cabecalhos, d.resposta
           FROM atualizadas a JOIN d USING (id_entrega)
         ), enfileiradas AS (
           INSERT INTO fila (id_documento, id_loja, id_evento, evento, data, entrega_falhou)
           SELECT d.id_documento, a.id_loja, a.id_evento, a.evento, a.data, true
           FROM atualizadas a JOIN d USING (id_entrega) WHERE d.para_fila
           ON CONFLICT (id_evento) DO NOTHING
         ), desenfileiradas AS (
           UPDATE fila f SET removido_em = clock_timestamp()
           FROM atualizadas a JOIN d USING (id_entrega)
           WHERE d.manual AND d.status = 'entregue' AND f.id_evento = a.id_evento AND f.removido_em IS NULL
         ), recuperacoes AS (
           UPDATE entregas e SET proxima_em = now()
           FROM (SELECT DISTINCT a.id_loja FROM atualizadas a JOIN d USING (id_entrega) WHERE d.recuperar) l
           CROSS JOIN LATERAL (
             SELECT id_entrega FROM entregas w
             WHERE w.id_loja = l.id_loja AND w.recuperar AND w.proxima_em IS NULL AND w.lease IS NULL
             ORDER BY w.posicao LIMIT 1
           ) proxima
           WHERE e.id_entrega = proxima.id_entrega
           RETURNING 1
         ), liberadas AS (
           -- Claimed for this replica (leased, as a claim does) where it may attempt it now;
           -- made due for any replica otherwise.
           UPDATE entregas e
           SET proxima_em = CASE WHEN r.claimed THEN now() + make_interval(secs => $20) ELSE now() END,
               lease = CASE WHEN r.claimed THEN gen_random_uuid() ELSE e.lease END
           FROM (SELECT DISTINCT a.id_loja FROM atualizadas a JOIN d USING (id_entrega) WHERE d.primeira) l
           CROSS JOIN LATERAL (
             SELECT id_entrega FROM entregas w
             WHERE w.id_loja = l.id_loja AND w.status = 'pendente' AND w.tentativas = 0 AND w.proxima_em IS NULL
             ORDER BY w.posicao LIMIT 1
           ) proxima
           CROSS JOIN LATERAL (
             SELECT $18::boolean AND NOT (l.id_loja = ANY($19::int[])) AND EXISTS (SELECT 1 FROM webhooks w WHERE w.id_loja = l.id_loja AND w.ativo) AS claimed
           ) r
           WHERE e.id_entrega = proxima.id_entrega
           RETURNING e.id_entrega, e.id_loja, e.id_evento, e.evento, e.data, e.traceparent, e.traceparent_primeira, e.status, e.tentativas, e.manual, e.recuperar, e.lease, r.claimed
         ), devidas AS (
           SELECT 1 FROM liberadas WHERE NOT claimed UNION ALL SELECT 1 FROM recuperacoes
         )
         SELECT meta.liberadas, meta.aviso, r.id_entrega, r.id_loja, r.id_evento, r.evento, r.data, r.traceparent, r.traceparent_primeira, r.status, r.tentativas, r.manual, r.recuperar, r.lease,
                w.id_webhook, w.url, w.eventos, w.segredo, w.criado_em, w.ativo, w.segredo_anterior, w.segredo_anterior_ate
         FROM (SELECT (SELECT count(*)::int FROM devidas) AS liberadas, (SELECT pg_notify($12, '') FROM devidas LIMIT 1) AS aviso) meta
         LEFT JOIN (liberadas r JOIN webhooks w ON w.id_loja = r.id_loja AND w.ativo) ON r.claimed`,
};

/**
 * The due deliveries in PostgreSQL, shared by every replica's dispatcher.
 *
 * - `claim` claims due rows with `FOR UPDATE SKIP LOCKED` (replicas never claim the
 *   same row) and leases them: `proxima_em` becomes the end of the lease and `lease` a new
 *   token. If the replica dies, the row is due again when the lease ends.
 * - `concluir` records attempts in one transaction per batch: the attempt, the delivery's next
 *   state (delivered, next retry, or failed and queued), the end of the lease, and the next
 *   first attempt of each store whose first attempt this was. It changes only rows whose lease
 *   is still the one claimed, so a delivery confirmed here is never sent again by anyone.
 */
export class EntregasDevidas {
  constructor(
    private readonly dataSource: DataSource,
    private readonly agendaMs: number[],
    private readonly leaseMs: number,
    private readonly desativarAposMs: number,
  ) {}

  /**
   * Claims up to `limite` due deliveries: at most `porLoja` of one store, or the store's entry
   * in `livres` (its free slots, given the attempts already in flight; none when 0). Returns
   * them, whether the scan was full (more may be due), and in how many ms the next delivery
   * not yet due becomes due. One statement, so one round trip and one now(): a row that comes
   * due just after the scan is counted as upcoming rather than missed by both.
   */
  async claim(limite: number, porLoja: number, livres: Map<number, number>): Promise<Claim> {
    const ocupadas = [...livres.keys()];
    const [lotadas, parciais] = [ocupadas.filter((id) => livres.get(id)! <= 0), ocupadas.filter((id) => livres.get(id)! > 0)];
    const rows = await consultaPreparada<ClaimRow>(
      this.dataSource,
      'claim',
      `WITH candidatas AS (
         SELECT id_entrega, id_loja, proxima_em FROM entregas
         WHERE proxima_em <= now() AND NOT (id_loja = ANY($1::int[]))
         ORDER BY proxima_em
         LIMIT $2
         FOR UPDATE SKIP LOCKED
       ), escolhidas AS (
         SELECT id_entrega FROM (
           SELECT c.id_entrega, c.id_loja, row_number() OVER (PARTITION BY c.id_loja ORDER BY c.proxima_em) AS n FROM candidatas c
         ) c
         LEFT JOIN unnest($3::int[], $4::int[]) AS l(id_loja, livres) USING (id_loja)
         WHERE c.n <= coalesce(l.livres, $5)
       ), claimed AS (
         UPDATE entregas e SET proxima_em = now() + make_interval(secs => $6), lease = gen_random_uuid()
         FROM escolhidas WHERE e.id_entrega = escolhidas.id_entrega
         RETURNING e.id_entrega, e.id_loja, e.id_evento, e.evento, e.data, e.traceparent, e.traceparent_primeira, e.status, e.tentativas, e.manual, e.recuperar, e.lease
       )
       SELECT r.*, w.id_webhook, w.url, w.eventos, w.segredo, w.criado_em, w.ativo, w.segredo_anterior, w.segredo_anterior_ate,
              meta.candidatas, meta.proxima_em_ms
       FROM (
         SELECT (SELECT count(*)::int FROM candidatas) AS candidatas,
                (SELECT extract(epoch FROM (min(proxima_em) - now())) * 1000 FROM entregas WHERE proxima_em > now()) AS proxima_em_ms
       ) meta
       LEFT JOIN (claimed r LEFT JOIN webhooks w ON w.id_loja = r.id_loja AND w.ativo) ON true`,
      [lotadas, limite, parciais, parciais.map((id) => livres.get(id)), porLoja, this.leaseMs / 1000],
    );
    const [{ candidatas, proxima_em_ms }] = rows;
    const claimedRows = rows.filter((row) => row.id_entrega !== null);
    // Removing or deactivating a webhook leaves a delivery in flight to its attempt; if that
    // attempt never reported (its replica died), the delivery comes due again with nowhere to go.
    const orfas = claimedRows.filter((row) => row.url === null).map((row): Orfa => ({ idEntrega: row.id_entrega, idLoja: row.id_loja, lease: row.lease }));
    const claimed = claimedRows.flatMap((row) => (row.url === null ? [] : [claimedFrom({ ...row, url: row.url })]));
    return { claimed, orfas, cheio: candidatas === limite, proximaEmMs: proxima_em_ms === null ? undefined : Number(proxima_em_ms) };
  }

  /**
   * Sends claimed deliveries whose store has no active webhook to the queue, as the webhook's
   * removal would have; one whose store registered or reactivated a webhook meanwhile keeps its
   * lease and is attempted when the lease ends.
   */
  async enfileirarOrfas(orfas: Orfa[]): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      await travarLojas(manager, orfas.map((orfa) => orfa.idLoja));
      const [retiradas]: [EntregaRetirada[], number] = await manager.query(
        `DELETE FROM entregas e USING unnest($1::uuid[], $2::uuid[]) AS o(id_entrega, lease)
         WHERE e.id_entrega = o.id_entrega AND e.lease = o.lease AND NOT EXISTS (SELECT 1 FROM webhooks w WHERE w.id_loja = e.id_loja AND w.ativo)
         RETURNING ${COLUNAS_RETIRADA}`,
        [orfas.map((orfa) => orfa.idEntrega), orfas.map((orfa) => orfa.lease)],
      );
      await enfileirarRetiradas(manager, retiradas);
    });
  }

  /**
   * Records a batch of finished attempts. A store's next first attempt, due once its first
   * attempt ended, is claimed here for this replica when `vagas` leaves the store room and every
   * attempt of the store in the batch succeeded (a failure may deactivate its webhook at this
   * COMMIT): it comes back in `claimed`, to attempt at once, without a claim and a NOTIFY
   * of its own. Otherwise it is made due for any replica. `wake`: whether the batch made
   * something due soon (a store's next first attempt or recovered delivery, or a retry), for
   * the dispatcher to look again. Then the endpoints' health, which may deactivate a webhook
   * (registrarSaude): that comes after the deliveries' outcome, so the event that got the 410
   * is queued before the later ones.
   */
  async concluir(lote: Concluida[], vagas: Vagas = { livre: false, lojasCheias: [] }): Promise<{ wake: boolean; claimed: Claimed[] }> {
    // A retry's interval counts from the end of the failed attempt.
    const decisoes = lote.map(({ entrega, resultado }) =>
      decidirAposTentativa(
        entrega.estado,
        resultado.ok ? { ok: true } : { ok: false, statusHttp: resultado.statusHttp, retryAfterMs: resultado.retryAfterMs },
        this.agendaMs,
        resultado.dataHora.getTime() + resultado.duracaoMs,
        Math.random(),
      ),
    );
    const retentativas = decisoes.some((decisao) => decisao.proximaEm !== null);
    const lojas = lote.map(({ entrega }) => entrega.idLoja);
    const unclaimable = [...vagas.lojasCheias, ...lote.filter(({ resultado }) => !resultado.ok).map(({ entrega }) => entrega.idLoja)];
    const tentativas = lote.map(({ entrega, resultado }) => ({
      idLoja: entrega.idLoja,
      idWebhook: entrega.webhook.idWebhook,
      ok: resultado.ok,
      em: resultado.dataHora.getTime(),
      statusHttp: resultado.statusHttp,
      erro: resultado.erro,
    }));
    const params = [
      lote.map(({ entrega }) => entrega.idEntrega),
      lote.map(({ entrega }) => entrega.lease),
      decisoes.map((decisao) => decisao.status),
      decisoes.map((decisao) => decisao.tentativas),
      decisoes.map((decisao) => (decisao.proximaEm === null ? null : new Date(decisao.proximaEm))),
      decisoes.map((decisao) => decisao.paraFila),
      lote.map(({ entrega }) => entrega.estado.tentativas === 0 && !entrega.estado.manual),
      lote.map(({ resultado }) => resultado.dataHora),
      lote.map(({ resultado }) => resultado.statusHttp),
      lote.map(({ resultado }) => resultado.duracaoMs),
      lote.map(({ resultado }) => resultado.erro),
      CANAL_ENTREGAS,
      lote.map(({ entrega }) => entrega.idLoja),
      lote.map(({ entrega }) => entrega.estado.manual),
      lote.map(({ entrega }) => entrega.recuperar),
      lote.map(({ resultado }) => resultado.traceparent),
      // The queue item's id, used only when the event goes to the queue.
      lote.map(() => novoId()),
      vagas.livre,
      unclaimable,
      this.leaseMs / 1000,
      lote.map(({ resultado }) => resultado.url),
      lote.map(({ resultado }) => (resultado.cabecalhos === null ? null : JSON.stringify(resultado.cabecalhos))),
      lote.map(({ resultado }) => resultado.resposta),
    ];
    let linhas: ConclusaoRow[] = [];
    // Two round trips: the stores' locks and their endpoints' health read under them go with
    // BEGIN, and the outcomes' statement and the health's writes with the COMMIT, its rows read
    // back once committed. A batch that deactivates a webhook runs the statement at once (a third
    // round trip): the deactivation then reads what the outcomes wrote.
    await compactTransaction(this.dataSource, [travaDasLojas(lojas), saudeDosEndpoints(lojas)], async (manager, saude) => {
      const depois = saudeAposTentativas(saude!.rows as SaudeRow[], tentativas, this.desativarAposMs, Date.now());
      if (depois.atualizadas.some(({ motivo }) => motivo !== null)) linhas = await consultaPreparada<ConclusaoRow>(manager, 'concluir', CONCLUSAO.text, params);
      else await writeAtCommit(manager, CONCLUSAO, params, (rows) => (linhas = rows as unknown as ConclusaoRow[]));
      await registrarSaude(manager, depois);
    });
    const claimed = linhas.flatMap((linha) => (linha.id_entrega === null ? [] : [claimedFrom(linha)]));
    return { wake: linhas[0].liberadas > 0 || retentativas, claimed };
  }
}
