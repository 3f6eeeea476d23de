import type { DataSource } from 'typeorm';
import type { LojaMessage } from '@trilha/contracts';
import { LojaStatusCache } from './loja-status.cache';

/** The read model as the cache loads it: the store as it was committed. */
const readModel = (ativa: boolean) => ({ query: async () => [{ ativa, tokens_revogados_antes: null }] }) as unknown as DataSource;

const envelope = { schemaVersion: 1, occurredAt: '2026-03-01T10:00:00.000Z', idLoja: 7, correlationId: 'c', causationId: null, traceparent: null };
const criada = { ...envelope, id: 'e1', type: 'loja.criada', data: { idLoja: 7, nome: 'Loja', criadaEm: '2026-03-01T10:00:00.000Z' } } as LojaMessage;
const desativada = { ...envelope, id: 'e2', type: 'loja.desativada', data: { idLoja: 7, dataDesativacao: '2026-03-01T10:00:01.000Z' } } as LojaMessage;
const ativada = { ...envelope, id: 'e3', type: 'loja.ativada', data: { idLoja: 7, dataAtivacao: '2026-03-01T10:00:02.000Z' } } as LojaMessage;
const rotacionado = { ...envelope, id: 'e4', type: 'loja.codigo.rotacionado', data: { idLoja: 7, dataRotacao: '2026-03-01T10:00:03.000Z' } } as LojaMessage;

describe('LojaStatusCache', () => {
  it('passes over the Kafka messages of a store older than its own command’s event, then follows Kafka again', async () => {
    const cache = new LojaStatusCache(readModel(true));
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
    const slowReadModel = { query: () => new Promise((resolve) => (answer = resolve)) } as unknown as DataSource;
    const cache = new LojaStatusCache(slowReadModel);
    const reading = cache.get(7);
    cache.applyOwn({ id: desativada.id, type: 'loja.desativada', data: { idLoja: 7, dataDesativacao: '2026-03-01T10:00:01.000Z' } });
    answer([{ ativa: true, tokens_revogados_antes: null }]); // what the database had before the command committed
    expect(await reading).toMatchObject({ ativa: false });
    cache.applyFromKafka(criada);
    expect(await cache.get(7)).toMatchObject({ ativa: false });
  });

  it('revokes the tokens issued before a code rotation, keeping the store active', async () => {
    const cache = new LojaStatusCache(readModel(true));
    await cache.get(7);
    cache.applyFromKafka(rotacionado);
    expect(await cache.get(7)).toEqual({ ativa: true, tokensRevogadosAntes: '2026-03-01T10:00:03.000Z' });
  });

  it('reads again a store it did not hold when a code rotation came while its read was on its way', async () => {
    const answers: ((rows: object[]) => void)[] = [];
    const readModelAnsweringLater = { query: () => new Promise((resolve) => answers.push(resolve)) } as unknown as DataSource;
    const cache = new LojaStatusCache(readModelAnsweringLater);
    const reading = cache.get(7);
    cache.applyFromKafka(rotacionado);
    answers[0]([{ ativa: true, tokens_revogados_antes: null }]); // what the database had before the rotation committed
    await new Promise(setImmediate);
    expect(answers).toHaveLength(2);
    answers[1]([{ ativa: true, tokens_revogados_antes: new Date('2026-03-01T10:00:03.000Z') }]);
    expect(await reading).toEqual({ ativa: true, tokensRevogadosAntes: '2026-03-01T10:00:03.000Z' });
  });

  it('applies Kafka messages in order when it has no command of its own pending', async () => {
    const cache = new LojaStatusCache(readModel(true));
    cache.applyFromKafka(criada);
    cache.applyFromKafka(desativada);
    expect(await cache.get(7)).toMatchObject({ ativa: false, tokensRevogadosAntes: '2026-03-01T10:00:01.000Z' });
  });
});
