import type { DataSource } from 'typeorm';
import { corpoNotificacao, decidirAposTentativa, type EstadoEntrega } from '@trilha/delivery-domain';
import { avisarEntregas, travarLojas } from '../shared/banco';
import type { ResultadoEnvio } from '../shared/webhook.client';
import { webhooksDasLojas, type Webhook } from '../shared/webhooks';

/** A claimed attempt: the delivery as it was when claimed, and where it goes. */
export interface Reivindicada {
  idEntrega: string;
  idLoja: number;
  idEvento: string;
  corpo: string;
  traceparent: string | null;
  estado: EstadoEntrega;
  /** The claim's token: only the holder of the current lease may end the attempt. */
  lease: string;
  webhook: Webhook;
}

export interface Reivindicacao {
  reivindicadas: Reivindicada[];
  cheio: boolean;
  proximaEmMs?: number;
}

export interface Concluida {
  entrega: Reivindicada;
  resultado: ResultadoEnvio;
}

interface ClaimRow {
  id_entrega: string;
  id_loja: number;
  id_evento: string;
  evento: string;
  data: object;
  traceparent: string | null;
  status: EstadoEntrega['status'];
  tentativas: number;
  manual: boolean;
  lease: string;
}

/**
 * The due deliveries in PostgreSQL, shared by every replica's dispatcher.
 *
 * - `reivindicar` claims due rows with `FOR UPDATE SKIP LOCKED` (replicas never claim the
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
  ) {}

  /**
   * Claims up to `limite` due deliveries, at most `livresPorLoja(idLoja)` of each store, none of
   * the stores in `lotadas`. Returns them, whether the scan was full (more may be due), and in
   * how many ms the next delivery not yet due becomes due.
   */
  async reivindicar(limite: number, lotadas: number[], livresPorLoja: (idLoja: number) => number): Promise<Reivindicacao> {
    return this.dataSource.transaction(async (manager) => {
      // In the claim's transaction, so with the same now(): a row that comes due just after
      // the claim looked is counted here rather than missed by both.
      const [{ ms }] = await manager.query(`SELECT extract(epoch FROM (min(proxima_em) - now())) * 1000 AS ms FROM entregas WHERE proxima_em > now()`);
      const proximaEmMs = ms === null ? undefined : Number(ms);
      const candidatas: { id_entrega: string; id_loja: number }[] = await manager.query(
        `SELECT id_entrega, id_loja FROM entregas
         WHERE proxima_em <= now() AND NOT (id_loja = ANY($1::int[]))
         ORDER BY proxima_em
         LIMIT $2
         FOR UPDATE SKIP LOCKED`,
        [lotadas, limite],
      );
      const porLoja = new Map<number, number>();
      const escolhidas = candidatas.filter(({ id_loja }) => {
        const n = (porLoja.get(id_loja) ?? 0) + 1;
        porLoja.set(id_loja, n);
        return n <= livresPorLoja(id_loja);
      });
      if (escolhidas.length === 0) return { reivindicadas: [], cheio: candidatas.length === limite, proximaEmMs };
      // TypeORM answers an UPDATE … RETURNING with [rows, count].
      const [rows]: [ClaimRow[], number] = await manager.query(
        `UPDATE entregas SET proxima_em = now() + make_interval(secs => $2), lease = gen_random_uuid()
         WHERE id_entrega = ANY($1::uuid[])
         RETURNING id_entrega, id_loja, id_evento, evento, data, traceparent, status, tentativas, manual, lease`,
        [escolhidas.map((row) => row.id_entrega), this.leaseMs / 1000],
      );
      const webhooks = await webhooksDasLojas(manager, [...porLoja.keys()]);
      const reivindicadas = rows.flatMap((row): Reivindicada[] => {
        const webhook = webhooks.get(row.id_loja);
        // Removing a webhook removes its pending deliveries under the store's lock; a claimed
        // row without one cannot be sent and is left to that removal.
        if (!webhook) return [];
        return [{
          idEntrega: row.id_entrega,
          idLoja: row.id_loja,
          idEvento: row.id_evento,
          corpo: corpoNotificacao(row.evento, row.data),
          traceparent: row.traceparent,
          estado: { status: row.status, tentativas: row.tentativas, manual: row.manual },
          lease: row.lease,
          webhook,
        }];
      });
      return { reivindicadas, cheio: candidatas.length === limite, proximaEmMs };
    });
  }

  /**
   * Records a batch of finished attempts. Returns whether it made something due soon (a
   * store's next first attempt, or a retry), for the dispatcher to look again.
   */
  async concluir(lote: Concluida[]): Promise<boolean> {
    // A retry's interval counts from the end of the failed attempt.
    const decisoes = lote.map(({ entrega, resultado }) =>
      decidirAposTentativa(
        entrega.estado,
        resultado.ok ? { ok: true } : { ok: false, retryAfterMs: resultado.retryAfterMs },
        this.agendaMs,
        resultado.dataHora.getTime() + resultado.duracaoMs,
        Math.random(),
      ),
    );
    const retentativas = decisoes.some((decisao) => decisao.proximaEm !== null);
    return this.dataSource.transaction(async (manager) => {
      await travarLojas(manager, lote.map(({ entrega }) => entrega.idLoja));
      const atualizadas: { id_entrega: string }[] = await manager.query(
        `WITH d AS (
           SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::smallint[], $5::timestamptz[], $6::boolean[],
                                $7::timestamptz[], $8::smallint[], $9::int[], $10::text[])
             AS d(id_entrega, lease, status, tentativas, proxima_em, para_fila, data_hora, status_http, duracao_ms, erro)
         ), atualizadas AS (
           UPDATE entregas e
           SET status = d.status, tentativas = d.tentativas, numero_tentativas = e.numero_tentativas + 1,
               proxima_em = d.proxima_em, lease = NULL, manual = false
           FROM d WHERE e.id_entrega = d.id_entrega AND e.lease = d.lease
           RETURNING e.id_entrega, e.numero_tentativas, e.id_loja, e.id_evento, e.evento, e.data
         ), registradas AS (
           INSERT INTO tentativas (id_entrega, numero, data_hora, status_http, duracao_ms, erro)
           SELECT a.id_entrega, a.numero_tentativas, d.data_hora, d.status_http, d.duracao_ms, d.erro
           FROM atualizadas a JOIN d USING (id_entrega)
         ), enfileiradas AS (
           INSERT INTO fila (id_loja, id_evento, evento, data, entrega_falhou)
           SELECT a.id_loja, a.id_evento, a.evento, a.data, true
           FROM atualizadas a JOIN d USING (id_entrega) WHERE d.para_fila
           ON CONFLICT (id_evento) DO NOTHING
         )
         SELECT id_entrega FROM atualizadas`,
        [
          lote.map(({ entrega }) => entrega.idEntrega),
          lote.map(({ entrega }) => entrega.lease),
          decisoes.map((decisao) => decisao.status),
          decisoes.map((decisao) => decisao.tentativas),
          decisoes.map((decisao) => (decisao.proximaEm === null ? null : new Date(decisao.proximaEm))),
          decisoes.map((decisao) => decisao.paraFila),
          lote.map(({ resultado }) => resultado.dataHora),
          lote.map(({ resultado }) => resultado.statusHttp),
          lote.map(({ resultado }) => resultado.duracaoMs),
          lote.map(({ resultado }) => resultado.erro),
        ],
      );
      const feitas = new Set(atualizadas.map((row) => row.id_entrega));
      // A first attempt made (whatever its outcome): the store's next first attempt may go.
      const lojasComVez = lote
        .filter(({ entrega }) => feitas.has(entrega.idEntrega) && entrega.estado.tentativas === 0 && !entrega.estado.manual)
        .map(({ entrega }) => entrega.idLoja);
      if (lojasComVez.length === 0) return retentativas;
      const [liberadas]: [unknown[], number] = await manager.query(
        `UPDATE entregas e SET proxima_em = now()
         FROM unnest($1::int[]) AS l(id_loja)
         CROSS JOIN LATERAL (
           SELECT id_entrega FROM entregas w
           WHERE w.id_loja = l.id_loja AND w.status = 'pendente' AND w.tentativas = 0 AND w.proxima_em IS NULL
           ORDER BY w.posicao LIMIT 1
         ) proxima
         WHERE e.id_entrega = proxima.id_entrega
         RETURNING e.id_entrega`,
        [lojasComVez],
      );
      if (liberadas.length === 0) return retentativas;
      await avisarEntregas(manager);
      return true;
    });
  }
}
