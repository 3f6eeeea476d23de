import {
  LOJAS_CONTRACT,
  schemaVersionWritten,
  TOPICS,
  type AplicativoRemovidoData,
  type LojaAtivadaData,
  type LojaCriadaData,
  type LojaDesativadaData,
} from '@trilha/contracts';
import type { OutboxMessage, OutboxRouting } from '@trilha/event-store';
import type { LojaEvent } from '@trilha/lojas-domain';

type Dados<T extends LojaEvent['type']> = Extract<LojaEvent, { type: T }>['data'];

/**
 * The lojas context's adapter from its domain events (`@trilha/lojas-domain`'s `LojaEvent`) to
 * the payloads of `lojas.events.v1` (`@trilha/contracts`): the one place that knows both. The
 * code hash stays in the gateway (consumers have no use for it and it is the key to a store's
 * tokens).
 */
export function lojaCriadaV1({ idLoja, nome, criadaEm }: Dados<'loja.criada'>): LojaCriadaData {
  return { idLoja, nome, criadaEm };
}

export function lojaDesativadaV1({ idLoja, dataDesativacao }: Dados<'loja.desativada'>): LojaDesativadaData {
  return { idLoja, dataDesativacao };
}

export function lojaAtivadaV1({ idLoja, dataAtivacao }: Dados<'loja.ativada'>): LojaAtivadaData {
  return { idLoja, dataAtivacao };
}

export function aplicativoRemovidoV1({ idLoja, dataRemocao }: Dados<'aplicativo.removido'>): AplicativoRemovidoData {
  return { idLoja, dataRemocao };
}

/** Every store event goes to `lojas.events.v1`. */
export const lojasRouting: OutboxRouting<LojaEvent> = (event) => {
  const v1 = (data: object): OutboxMessage => ({ topic: TOPICS.lojas, schemaVersion: schemaVersionWritten(LOJAS_CONTRACT, event.type), data });
  switch (event.type) {
    case 'loja.criada':
      return [v1(lojaCriadaV1(event.data))];
    case 'loja.desativada':
      return [v1(lojaDesativadaV1(event.data))];
    case 'loja.ativada':
      return [v1(lojaAtivadaV1(event.data))];
    case 'aplicativo.removido':
      return [v1(aplicativoRemovidoV1(event.data))];
  }
};
