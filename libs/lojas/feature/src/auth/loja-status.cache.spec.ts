import type { DataSource } from 'typeorm';
import type { LojaMessage } from '@trilha/contracts';
import { ConsumerMembership } from '@trilha/event-store';
import { LojaStatusCache } from './loja-status.cache';

/**
 * The database as the cache loads stores from it: `read` gives a store's row (none: the store
 * does not exist), and each store of a turn's statement gets it.
 */
function database(read: () => Promise<object[]>): DataSource {
  const query = async ({ values: [idsLoja] }: { values: [number[]] }) => {
    const rows = await read();
    return { rows: idsLoja.map(() => rows[0] ?? { ativa: null, tokens_revogados_antes: null }) };
  };
  return { driver: { master: { query } } } as unknown as DataSource;
}

/** The read model as the cache loads it: the store as it was committed. */
const readModel = (ativa: boolean) => database(async () => [{ ativa, tokens_revogados_antes: null }]);

/** A consumer in its group, unless told. */
function membership(inGroup = true): ConsumerMembership {
  const membership = new ConsumerMembership();
  if (inGroup) membership.joined();
  return membership;
}

const envelope = { schemaVersion: 1, occurredAt: '2026-03-01T10:00:00.000Z', idLoja: 7, correlationId: 'c', causationId: null, traceparent: null };
const criada = { ...envelope, id: 'e1', type: 'loja.criada', data: { idLoja: 7, nome: 'Loja', criadaEm: '2026-03-01T10:00:00.000Z' } } as LojaMessage;
const desativada = { ...envelope, id: 'e2', type: 'loja.desativada', data: { idLoja: 7, dataDesativacao: '2026-03-01T10:00:01.000Z' } } as LojaMessage;
const ativada = { ...envelope, id: 'e3', type: 'loja.ativada', data: { idLoja: 7, dataAtivacao: '2026-03-01T10:00:02.000Z' } } as LojaMessage;
const rotacionado = { ...envelope, id: 'e4', type: 'loja.codigo.rotacionado', data: { idLoja: 7, dataRotacao: '2026-03-01T10:00:03.000Z' } } as LojaMessage;

describe('LojaStatusCache', () => {
  it('passes over the Kafka messages of a store older than its own command’s event, then follows Kafka again', async () => {
    const cache = new LojaStatusCache(readModel(true), membership());
    await cache.get(7);
    cache.applyOwn({ id: desativada.id, type: 'loja.desativada', data: { idLoja: 7, dataDesativacao: '2026-03-01T10:00:01.000Z' } });
    // The store's creation, read from Kafka after this replica deactivated it, changes nothing.
    cache.applyFromKafka(criada);
    expect(await cache.get(7)).toMatchObject({ ativa: false });
    cache.applyFromKafka(desativada);
    expect(await cache.get(7)).toMatchObject({ ativa: false });
    // Past its own event, a message of another replica's command applies.
    cache.applyFromKafka(ativada);
    expect(await cache.get(7)).toMatchObject({ ativa: true });
  });

  it('keeps an event applied while its read of the database was on its way', async () => {
    let answer: (rows: object[]) => void = () => undefined;
    const slowReadModel = database(() => new Promise((resolve) => (answer = resolve)));
    const cache = new LojaStatusCache(slowReadModel, membership());
    const reading = cache.get(7);
    cache.applyOwn({ id: desativada.id, type: 'loja.desativada', data: { idLoja: 7, dataDesativacao: '2026-03-01T10:00:01.000Z' } });
    await new Promise(setImmediate); // the turn's statement is sent
    answer([{ ativa: true, tokens_revogados_antes: null }]); // what the database had before the command committed
    expect(await reading).toMatchObject({ ativa: false });
    cache.applyFromKafka(criada);
    expect(await cache.get(7)).toMatchObject({ ativa: false });
  });

  it('revokes the tokens issued before a code rotation, keeping the store active', async () => {
    const cache = new LojaStatusCache(readModel(true), membership());
    await cache.get(7);
    cache.applyFromKafka(rotacionado);
    expect(await cache.get(7)).toEqual({ ativa: true, tokensRevogadosAntes: '2026-03-01T10:00:03.000Z' });
  });

  it('reads again a store it did not hold when a code rotation came while its read was on its way', async () => {
    const answers: ((rows: object[]) => void)[] = [];
    const readModelAnsweringLater = database(() => new Promise((resolve) => answers.push(resolve)));
    const cache = new LojaStatusCache(readModelAnsweringLater, membership());
    const reading = cache.get(7);
    cache.applyFromKafka(rotacionado);
    await new Promise(setImmediate); // the turn's statement is sent
    answers[0]([{ ativa: true, tokens_revogados_antes: null }]); // what the database had before the rotation committed
    await new Promise(setImmediate);
    await new Promise(setImmediate);
    expect(answers).toHaveLength(2);
    answers[1]([{ ativa: true, tokens_revogados_antes: new Date('2026-03-01T10:00:03.000Z') }]);
    expect(await reading).toEqual({ ativa: true, tokensRevogadosAntes: '2026-03-01T10:00:03.000Z' });
  });

  it('applies Kafka messages in order when it has no command of its own pending', async () => {
    const cache = new LojaStatusCache(readModel(true), membership());
    cache.applyFromKafka(criada);
    cache.applyFromKafka(desativada);
    expect(await cache.get(7)).toMatchObject({ ativa: false, tokensRevogadosAntes: '2026-03-01T10:00:01.000Z' });
  });

  it('loads the stores asked in one turn with one statement, each from its own row, and knows a store that does not exist', async () => {
    const statements: number[][] = [];
    const query = async ({ values: [idsLoja] }: { values: [number[]] }) => {
      statements.push(idsLoja);
      return { rows: idsLoja.map((idLoja) => (idLoja === 9 ? { ativa: null, tokens_revogados_antes: null } : { ativa: idLoja === 7, tokens_revogados_antes: null })) };
    };
    const cache = new LojaStatusCache({ driver: { master: { query } } } as unknown as DataSource, membership());
    const lidas = await Promise.all([cache.get(7), cache.get(8), cache.get(9)]);
    expect(statements).toEqual([[7, 8, 9]]);
    expect(lidas).toEqual([{ ativa: true, tokensRevogadosAntes: null }, { ativa: false, tokensRevogadosAntes: null }, undefined]);
  });

  describe('while its consumer is not in its group', () => {
    /** A read model whose store can be deactivated behind the cache's back, counting its reads. */
    function changingReadModel() {
      const store = { ativa: true, reads: 0 };
      const dataSource = database(async () => (store.reads++, [{ ativa: store.ativa, tokens_revogados_antes: null }]));
      return { store, dataSource };
    }

    it('reads the database on every request, and trusts its entries again once the consumer joins', async () => {
      const { store, dataSource } = changingReadModel();
      const consumer = membership(false);
      const cache = new LojaStatusCache(dataSource, consumer);
      expect(await cache.get(7)).toMatchObject({ ativa: true });
      // A deactivation its consumer will never read (published before the group's offsets were resolved).
      store.ativa = false;
      expect(await cache.get(7)).toMatchObject({ ativa: false });
      expect(store.reads).toBe(2);
      consumer.joined();
      await cache.get(7);
      await cache.get(7);
      expect(store.reads).toBe(3);
    });

    it('forgets every entry when the consumer (re)joins, and reads again what was read across the join', async () => {
      const { store, dataSource } = changingReadModel();
      const consumer = membership(true);
      const cache = new LojaStatusCache(dataSource, consumer);
      expect(await cache.get(7)).toMatchObject({ ativa: true });
      // A rebalance: out of the group, a deactivation published meanwhile, then the rejoin.
      consumer.left();
      store.ativa = false;
      consumer.joined();
      expect(await cache.get(7)).toMatchObject({ ativa: false });

      store.ativa = true;
      const reading = cache.get(8);
      consumer.joined();
      store.ativa = false;
      // The read that began before the join is made again after it.
      expect(await reading).toMatchObject({ ativa: false });
      expect(await cache.get(8)).toMatchObject({ ativa: false });
    });
  });
});
