import { IsInt, IsISO8601, IsString, MaxLength, Min } from 'class-validator';
import type { TopicContract, TopicMessage } from '../validate-message';

/** Events of `lojas.events.v1`: the lifecycle of a store, published by the gateway. */
export const LOJA_EVENT_TYPES = {
  criada: 'loja.criada',
  desativada: 'loja.desativada',
  ativada: 'loja.ativada',
  codigoRotacionado: 'loja.codigo.rotacionado',
  aplicativoRemovido: 'aplicativo.removido',
} as const;

export class LojaCriadaData {
  @IsInt() @Min(1) idLoja: number;
  @IsString() @MaxLength(150) nome: string;
  @IsISO8601({ strict: true }) criadaEm: string;
}

export class LojaDesativadaData {
  @IsInt() @Min(1) idLoja: number;
  @IsISO8601({ strict: true }) dataDesativacao: string;
}

export class LojaAtivadaData {
  @IsInt() @Min(1) idLoja: number;
  @IsISO8601({ strict: true }) dataAtivacao: string;
}

/**
 * The store's account code was replaced: tokens issued up to `dataRotacao` are revoked. The new
 * code's hash stays in the gateway, as at creation.
 */
export class LojaCodigoRotacionadoData {
  @IsInt() @Min(1) idLoja: number;
  @IsISO8601({ strict: true }) dataRotacao: string;
}

/** Its payload is `{idLoja, dataRemocao}` (docs/API.md section 7). */
export class AplicativoRemovidoData {
  @IsInt() @Min(1) idLoja: number;
  @IsISO8601({ strict: true }) dataRemocao: string;
}

export const LOJAS_CONTRACT = {
  [LOJA_EVENT_TYPES.criada]: { data: LojaCriadaData, schemaVersions: [1] },
  [LOJA_EVENT_TYPES.desativada]: { data: LojaDesativadaData, schemaVersions: [1] },
  [LOJA_EVENT_TYPES.ativada]: { data: LojaAtivadaData, schemaVersions: [1] },
  [LOJA_EVENT_TYPES.codigoRotacionado]: { data: LojaCodigoRotacionadoData, schemaVersions: [1] },
  [LOJA_EVENT_TYPES.aplicativoRemovido]: { data: AplicativoRemovidoData, schemaVersions: [1] },
} satisfies TopicContract;

export type LojaMessage = TopicMessage<typeof LOJAS_CONTRACT>;
