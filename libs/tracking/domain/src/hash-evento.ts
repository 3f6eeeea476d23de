import { hash } from 'node:crypto';

export interface IdentidadeEvento {
  idLoja: number;
  idPedido: string;
  chaveEnvio: string;
  dataHora: string;
  descricao: string;
  sigla: string;
}

/**
 * The `hash` of a tracking event: SHA-1 (40 hex) of what makes it the same event — its store,
 * order, volume, `dataHora`, `descricao` and `sigla` — so posting it again finds it instead of
 * recording it twice. A JSON array keeps the parts apart (no separator can be forged).
 */
export function hashEvento(evento: IdentidadeEvento): string {
  const { idLoja, idPedido, chaveEnvio, dataHora, descricao, sigla } = evento;
  return hash('sha1', JSON.stringify([idLoja, idPedido, chaveEnvio, dataHora, descricao, sigla]), 'hex');
}
