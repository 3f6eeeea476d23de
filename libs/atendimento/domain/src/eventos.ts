/**
 * The atendimento context's own events: what its conversation (`atendimento-<id>`) and agent
 * (`agente-<id>`) streams store, and its deciders and projections fold. They are plain data,
 * owned here; what `atendimento.events.v1` publishes of them is the routing adapter's mapping
 * (`libs/atendimento/feature/src/shared/atendimento.routing.ts`). Stored events keep this shape for
 * ever: a stream written long ago is folded with these types.
 */
import type { AgenteEvent } from './agente';

export const CANAIS = ['whatsapp', 'chat', 'email', 'telefone', 'marketplace'] as const;
export type Canal = (typeof CANAIS)[number];
export const TIPOS_ATENDIMENTO = ['duvida', 'reclamacao', 'troca', 'devolucao', 'rastreio', 'outro'] as const;
export type TipoAtendimento = (typeof TIPOS_ATENDIMENTO)[number];
export const DIRECOES = ['entrada', 'saida'] as const;
export type Direcao = (typeof DIRECOES)[number];

/** The conversation's event types; the published ones carry the same names. */
export const ATENDIMENTO_EVENTOS = {
  criado: 'atendimento.criado',
  mensagem: 'atendimento.mensagem',
  encerrado: 'atendimento.encerrado',
} as const;

export interface DadosClienteAtendimento {
  nome: string;
  telefone: string | null;
  email: string | null;
}

export interface DadosAtendimentoCriado {
  idAtendimento: string;
  idLoja: number;
  canal: Canal;
  tipo: TipoAtendimento;
  status: 'aberto';
  dadosCliente: DadosClienteAtendimento;
  dataAbertura: string;
  /** The order the conversation is about, if any: this service's own, not published. */
  idPedido: string | null;
}

export interface DadosAtendimentoMensagem {
  /** This service's own id of the message, not published. */
  idMensagem: string;
  idAtendimento: string;
  idLoja: number;
  canal: Canal;
  direcao: Direcao;
  remetente: string;
  mensagem: string;
  dataHora: string;
}

export interface DadosAtendimentoEncerrado {
  idAtendimento: string;
  idLoja: number;
  canal: Canal;
  status: 'encerrado';
  dataEncerramento: string;
  resumo: string;
}

export type AtendimentoCriado = { type: typeof ATENDIMENTO_EVENTOS.criado; data: DadosAtendimentoCriado };
export type AtendimentoMensagem = { type: typeof ATENDIMENTO_EVENTOS.mensagem; data: DadosAtendimentoMensagem };
export type AtendimentoEncerradoEvent = { type: typeof ATENDIMENTO_EVENTOS.encerrado; data: DadosAtendimentoEncerrado };

/** The events of a conversation's stream. */
export type AtendimentoEvent = AtendimentoCriado | AtendimentoMensagem | AtendimentoEncerradoEvent;

/** Every event the atendimento service stores: its conversations' and its agents'. */
export type AtendimentoServiceEvent = AtendimentoEvent | AgenteEvent;
