import {
  LOJAS_CONTRACT,
  messagesOn,
  TOPICS,
  type AplicativoRemovidoData,
  type LojaAtivadaData,
  type LojaCodigoRotacionadoData,
  type LojaCriadaData,
  type LojaDesativadaData,
} from '@trilha/contracts';
import type { OutboxRouting } from '@trilha/event-store';
import type { LojaEvent } from '@trilha/lojas-domain';

type Dados<T extends LojaEvent['type']> = Extract<LojaEvent, { type: T }>['data'];

/**
 * The lojas context's adapter from its domain events (`@trilha/lojas-domain`'s `LojaEvent`) to
 * the payloads of `lojas.events.v1` (`@trilha/contracts`): the one place that knows both. The
 * code hashes stay in the gateway (consumers have no use for them and each is the key to a store's
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

export function lojaCodigoRotacionadoV1({ idLoja, dataRotacao }: Dados<'loja.codigo.rotacionado'>): LojaCodigoRotacionadoData {
  return { idLoja, dataRotacao };
}

export function aplicativoRemovidoV1({ idLoja, dataRemocao }: Dados<'aplicativo.removido'>): AplicativoRemovidoData {
  return { idLoja, dataRemocao };
}

const v1 = messagesOn(TOPICS.lojas, LOJAS_CONTRACT);

/** Every store event goes to `lojas.events.v1`. */
export const lojasRouting: OutboxRouting<LojaEvent> = (event) => {
  switch (event.type) {
    case 'loja.criada':
      return [v1(event.type, lojaCriadaV1(event.data))];
    case 'loja.desativada':
      return [v1(event.type, lojaDesativadaV1(event.data))];
    case 'loja.ativada':
      return [v1(event.type, lojaAtivadaV1(event.data))];
    case 'loja.codigo.rotacionado':
      return [v1(event.type, lojaCodigoRotacionadoV1(event.data))];
    case 'aplicativo.removido':
      return [v1(event.type, aplicativoRemovidoV1(event.data))];
  }
};
