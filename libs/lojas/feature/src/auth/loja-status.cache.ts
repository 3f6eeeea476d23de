import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { ConsumerMembership, pgPool, StatementPerTurn } from '@trilha/event-store';
import type { LojaAcesso, LojaEvent } from '@trilha/lojas-domain';
import type { LojaMessage } from '@trilha/contracts';
import type { LojaRow } from '../lojas.projection';

/** How long an entry loaded from the database is trusted without news from Kafka. */
const TRUST_MS = 30_000;

/** One row per store asked, in their order; a store that does not exist has `ativa` null. */
const LOJAS_DO_TURNO = `SELECT l.ativa, l.tokens_revogados_antes
  FROM unnest($1::int[]) WITH ORDINALITY AS q(id_loja, i) LEFT JOIN lojas l ON l.id_loja = q.id_loja
  ORDER BY q.i`;

type LojaAcessoRow = Pick<LojaRow, 'ativa' | 'tokens_revogados_antes'>;

/**
 * Each gateway replica's view of which stores are active. Entries load from the read model on
 * first use; store events arriving over Kafka (every replica reads them, each in its own
 * consumer group) update them at once, which is how a deactivation reaches every replica
 * within moments. A replica serves before its consumer is in its group, and its group reads
 * from the latest offset on: an event published before the consumer joins never reaches it.
 * So while the consumer is not in its group every request reads the database, and each
 * (re)join forgets every entry. The expiry is a safety net for anything else missed. With many
 * stores it makes loads a steady part of the requests (1,000 stores: one every 30 ms), so the
 * loads of a turn go to PostgreSQL as one prepared statement (`StatementPerTurn`), each answered
 * from its own row.
 */
@Injectable()
export class LojaStatusCache {
  private readonly entries = new Map<number, { acesso: LojaAcesso; loadedAt: number }>();
  /**
   * By store, the ids of events this replica's own commands applied that its consumer has not
   * read back from Kafka yet. Until they come, a message of that store is older than what the
   * cache holds (a store's events stay in order on the topic) and is passed over: else the
   * `loja.criada` of a store deactivated here a moment later could arrive after the
   * deactivation and make the store active again in this replica's eyes.
   */
  private readonly awaitingKafka = new Map<number, Set<string>>();

  /**
   * By store, how many events this replica applied: a read of the database during which it
   * changed may be older than those events.
   */
  private readonly appliedCount = new Map<number, number>();

  /** How many times every entry was forgotten: a read begun before may miss what made it so. */
  private forgotten = 0;

  /** The consumer's joins this cache has forgotten its entries for. */
  private joinsSeen = 0;

  private readonly loads = new StatementPerTurn<number, LojaAcessoRow | undefined>((idsLoja) => this.load(idsLoja));

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly membership: ConsumerMembership,
  ) {}

  async get(idLoja: number): Promise<LojaAcesso | undefined> {
    this.forgetOnRejoin();
    const entry = this.entries.get(idLoja);
    if (entry && this.membership.inGroup && Date.now() - entry.loadedAt < TRUST_MS) return entry.acesso;
    const appliedBefore = this.appliedCount.get(idLoja);
    const forgottenBefore = this.forgotten;
    const row = await this.loads.submit(idLoja);
    this.forgetOnRejoin();
    if (this.forgotten !== forgottenBefore) return this.get(idLoja);
    // An event applied while the read was on its way is newer than what the read saw: its entry
    // holds, and an event that left no entry (one that does not say everything the guard needs,
    // on a store this replica did not hold) asks for a read that comes after it.
    if (this.appliedCount.get(idLoja) !== appliedBefore) {
      const applied = this.entries.get(idLoja);
      return applied ? applied.acesso : this.get(idLoja);
    }
    // Otherwise the read saw every event committed before it, this replica's own included.
    this.awaitingKafka.delete(idLoja);
    if (!row) return undefined;
    const acesso = { ativa: row.ativa, tokensRevogadosAntes: row.tokens_revogados_antes?.toISOString() ?? null };
    this.entries.set(idLoja, { acesso, loadedAt: Date.now() });
    return acesso;
  }

  /** Forgets every store: each is read from the database again on its next request. */
  forgetAll(): void {
    this.forgotten += 1;
    this.entries.clear();
    this.awaitingKafka.clear();
  }

  /** Applies an event of this replica's own command, as soon as it committed. */
  applyOwn(event: LojaEvent & { id: string }): void {
    const { idLoja } = event.data;
    const awaiting = this.awaitingKafka.get(idLoja) ?? new Set<string>();
    this.awaitingKafka.set(idLoja, awaiting.add(event.id));
    this.apply(event);
  }

  /** Applies a store event read from Kafka, unless the cache is already past it. */
  applyFromKafka(message: LojaMessage): void {
    const { idLoja } = message.data;
    const awaiting = this.awaitingKafka.get(idLoja);
    if (awaiting) {
      awaiting.delete(message.id);
      if (awaiting.size === 0) this.awaitingKafka.delete(idLoja);
      return;
    }
    this.apply(message);
  }

  private async load(idsLoja: number[]): Promise<(LojaAcessoRow | undefined)[]> {
    const { rows } = await pgPool(this.dataSource).query<LojaAcessoRow | { ativa: null }>({ name: 'gateway_lojas_do_turno', text: LOJAS_DO_TURNO, values: [idsLoja] });
    return rows.map((row) => (row.ativa === null ? undefined : (row as LojaAcessoRow)));
  }

  /** Forgets every store once the consumer (re)joined its group. */
  private forgetOnRejoin(): void {
    if (this.membership.joins === this.joinsSeen) return;
    this.joinsSeen = this.membership.joins;
    this.forgetAll();
  }

  private apply(event: LojaMessage | LojaEvent): void {
    this.forgetOnRejoin();
    const { idLoja } = event.data;
    this.appliedCount.set(idLoja, (this.appliedCount.get(idLoja) ?? 0) + 1);
    const current = this.entries.get(idLoja)?.acesso;
    const set = (acesso: LojaAcesso) => this.entries.set(idLoja, { acesso, loadedAt: Date.now() });
    switch (event.type) {
      case 'loja.criada':
        return void set({ ativa: true, tokensRevogadosAntes: null });
      case 'loja.desativada':
        return void set({ ativa: false, tokensRevogadosAntes: event.data.dataDesativacao });
      case 'loja.ativada':
        if (current) set({ ...current, ativa: true });
        else this.entries.delete(idLoja);
        return;
      case 'loja.codigo.rotacionado':
        if (current) set({ ...current, tokensRevogadosAntes: event.data.dataRotacao });
        else this.entries.delete(idLoja);
        return;
    }
  }
}
