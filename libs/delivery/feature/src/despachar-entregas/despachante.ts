import { type BeforeApplicationShutdown, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { Gauge } from 'prom-client';
import { requestContext } from '@trilha/observability';
import { CANAL_ENTREGAS, TIMEOUT_MS, type WebhookClient } from '../shared';
import type { ClaimOnRecord } from '../registrar-notificacao/registrar-notificacao';
import type { Concluida, EntregasDevidas, Claimed, Vagas } from './entregas-devidas';

/** Attempts one replica runs at once. */
const MAX_EM_VOO = 1000;
/** Attempts of one store one replica runs at once: a store whose endpoint hangs holds at most these. */
const MAX_POR_LOJA = 8;
/** Rows a claim looks at. */
const LOTE = 200;
/** Finished attempts recorded per transaction. */
const LOTE_CONCLUSAO = 500;
/**
 * At most one claim per this many ms while wake-ups keep coming: each claim is a commit, and
 * under load a few ms gather the deliveries that came due meanwhile into one claim.
 */
const INTERVALO_MINIMO_MS = 5;
/** Polling fallback when no NOTIFY comes (and the wait for retries that become due with time). */
const POLL_MS = 1000;
const MAX_BACKOFF_MS = 5000;
/**
 * A claim outlives the longest attempt by a margin; after it, the attempt is due again. An
 * attempt, its DNS resolution included, ends within TIMEOUT_MS (WebhookClient), so no attempt
 * is still running when another replica may claim the same delivery.
 */
export const LEASE_MS = TIMEOUT_MS + 20_000;

const emVooGauge = new Gauge({ name: 'trilha_webhook_attempts_in_flight', help: 'Webhook attempts this replica is making now' });

/**
 * The dispatcher every delivery replica runs. It claims due deliveries from PostgreSQL (woken
 * by NOTIFY when one becomes due, polling as a fallback and for retries that come due with
 * time), makes many attempts at once, and records their outcome in batches; a store's next
 * first attempt, which a record makes due, it claims in that record and attempts at once, and
 * so does the consumer with a new event's delivery due at once (`claimOnRecord`).
 * Nothing here waits on one store: each attempt runs on its own, a store holds at most
 * MAX_POR_LOJA of this replica's slots, and a store's first attempts are serialised by the
 * database (a delivery is due only when the store's earlier first attempt has been made).
 */
export class Despachante implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(Despachante.name);
  private readonly porLoja = new Map<number, number>();
  private readonly emVoo = new Set<Promise<void>>();
  private concluidas: Concluida[] = [];
  private gravando?: Promise<void>;
  private listener?: Client;
  private running = false;
  private woken = false;
  private endPause?: () => void;
  private loop?: Promise<void>;

  constructor(
    private readonly entregas: EntregasDevidas,
    private readonly client: WebhookClient,
    private readonly databaseUrl: string,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.running = true;
    await this.listen();
    this.loop = this.run();
  }

  /**
   * Stops claiming, lets the attempts in flight finish (at most 10 s) and records them, before
   * any module closes its connections (TypeORM closes the database on application shutdown): an
   * attempt made but not recorded would be made again once its lease ends.
   */
  async beforeApplicationShutdown(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.endPause?.();
    await this.loop;
    await Promise.allSettled([...this.emVoo]);
    await this.gravando;
    await this.listener?.end().catch(() => undefined);
  }

  private async listen(): Promise<void> {
    const client = new Client({ connectionString: this.databaseUrl });
    client.on('notification', () => this.wake());
    client.on('error', (error) => this.logger.warn(`deliveries listener lost: ${error.message}`));
    client.on('end', () => {
      if (this.running) setTimeout(() => this.listen().catch(() => undefined), 1000);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CANAL_ENTREGAS}`);
      this.listener = client;
      this.wake();
    } catch (error) {
      this.logger.warn(`deliveries listener cannot connect: ${(error as Error).message}`);
      await client.end().catch(() => undefined);
      if (this.running) setTimeout(() => this.listen().catch(() => undefined), 1000);
    }
  }

  private wake(): void {
    this.woken = true;
    this.endPause?.();
  }

  private async run(): Promise<void> {
    let backoff = 100;
    while (this.running) {
      let espera = POLL_MS;
      try {
        this.woken = false;
        const livres = MAX_EM_VOO - this.emVoo.size;
        if (livres > 0) {
          const livresPorLoja = new Map([...this.porLoja].map(([idLoja, n]) => [idLoja, MAX_POR_LOJA - n]));
          const { claimed, orfas, cheio, proximaEmMs } = await this.entregas.claim(Math.min(livres, LOTE), MAX_POR_LOJA, livresPorLoja);
          for (const entrega of claimed) this.tentar(entrega);
          // If this fails, their leases end and they are claimed again.
          if (orfas.length > 0) await this.entregas.enfileirarOrfas(orfas).catch((error: Error) => this.logger.error(`queueing ${orfas.length} deliveries without a webhook failed: ${error.message}`));
          if (cheio) continue;
          espera = Math.min(POLL_MS, proximaEmMs ?? POLL_MS);
        }
        backoff = 100;
      } catch (error) {
        this.logger.error(`dispatcher failed, retrying in ${backoff} ms: ${(error as Error).message}`);
        espera = backoff;
        backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
      }
      // A wake-up that came while claiming is not lost; wake-ups in a burst make one claim.
      if (!this.woken) await this.pause(espera);
      else await new Promise((resolve) => setTimeout(resolve, INTERVALO_MINIMO_MS));
    }
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.endPause = done;
    });
  }

  private tentar(entrega: Claimed): void {
    this.porLoja.set(entrega.idLoja, (this.porLoja.get(entrega.idLoja) ?? 0) + 1);
    const tentativa = requestContext
      .run({ correlationId: entrega.idEvento, causationId: entrega.idEvento, idLoja: entrega.idLoja }, () =>
        this.client.enviar(entrega.webhook, entrega.idEvento, entrega.corpo, entrega.traceparent, { anteriores: entrega.estado.tentativas, traceparentPrimeira: entrega.traceparentPrimeira }),
      )
      .then((resultado) => {
        this.logger.debug({ msg: 'webhook attempt', idEntrega: entrega.idEntrega, idLoja: entrega.idLoja, statusHttp: resultado.statusHttp, erro: resultado.erro, duracaoMs: resultado.duracaoMs });
        this.gravar({ entrega, resultado });
      })
      .finally(() => {
        const daLoja = this.porLoja.get(entrega.idLoja) ?? 1;
        if (daLoja === 1) this.porLoja.delete(entrega.idLoja);
        else this.porLoja.set(entrega.idLoja, daLoja - 1);
        const cheio = this.emVoo.size >= MAX_EM_VOO;
        this.emVoo.delete(tentativa);
        emVooGauge.set(this.emVoo.size);
        // A freed slot matters only if claims were held back by a cap; otherwise the outcome's
        // record (a retry, the store's next event) wakes the loop when it commits.
        if (cheio || daLoja >= MAX_POR_LOJA) this.wake();
      });
    this.emVoo.add(tentativa);
    emVooGauge.set(this.emVoo.size);
  }

  /**
   * The claim the consumer recording a new event of `idLoja` makes for this replica
   * (`registrarNotificacao`), when the dispatcher runs and has room for one more attempt of the
   * store; none otherwise, and a delivery due at once is announced to every replica. A delivery
   * claimed as the dispatcher stops is not attempted here: its lease ends and any replica claims it.
   */
  claimOnRecord(idLoja: number): ClaimOnRecord | undefined {
    if (!this.running || this.emVoo.size >= MAX_EM_VOO || (this.porLoja.get(idLoja) ?? 0) >= MAX_POR_LOJA) return undefined;
    const tentar = (entrega: Claimed) => {
      if (this.running) this.tentar(entrega);
    };
    return { lease: randomUUID(), leaseMs: LEASE_MS, tentar };
  }

  /**
   * Where this replica has room for a store's next first attempt, made due by the record of
   * `registros` attempts (at most one each): that one is then claimed as it is recorded. None
   * while it stops: the record makes it due for the other replicas instead.
   */
  private vagas(registros: number): Vagas {
    return { livre: this.running && this.emVoo.size + registros <= MAX_EM_VOO, lojasCheias: [...this.porLoja].filter(([, n]) => n >= MAX_POR_LOJA).map(([idLoja]) => idLoja) };
  }

  /** Records finished attempts in batches: one transaction for all that finished while the last one ran. */
  private gravar(concluida: Concluida): void {
    this.concluidas.push(concluida);
    this.gravando ??= this.gravarPendentes();
  }

  private async gravarPendentes(): Promise<void> {
    let backoff = 100;
    try {
      while (this.concluidas.length > 0) {
        const lote = this.concluidas.slice(0, LOTE_CONCLUSAO);
        try {
          const { wake, claimed } = await this.entregas.concluir(lote, this.vagas(lote.length));
          this.concluidas.splice(0, lote.length);
          for (const entrega of claimed) this.tentar(entrega);
          if (wake) this.wake();
          backoff = 100;
        } catch (error) {
          // The database is away: keep the outcomes and try again. If it stays away longer than
          // the lease, the attempts are made again (at least once), never lost.
          this.logger.error(`recording ${lote.length} webhook attempts failed, retrying in ${backoff} ms: ${(error as Error).message}`);
          await new Promise((resolve) => setTimeout(resolve, backoff));
          backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
        }
      }
    } finally {
      // Cleared in the same turn as the last emptiness check, so no outcome is left without a writer.
      this.gravando = undefined;
    }
  }
}
