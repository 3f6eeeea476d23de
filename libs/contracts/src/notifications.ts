import { AtendimentoCriadoData, AtendimentoEncerradoData, AtendimentoMensagemData, ATENDIMENTO_EVENT_TYPES } from './atendimento.events.v1';
import { AplicativoRemovidoData, LOJA_EVENT_TYPES } from './lojas.events.v1';
import { TOPICS } from './topics';
import type { PayloadClass } from './validate-message';

/** One notification a store can receive, and the registration flag that controls it. */
export interface Notificacao {
  readonly evento: string;
  readonly flag: string;
  /** The flag's value when the registration leaves it out, or was stored before the flag existed. */
  readonly padrao: boolean;
  readonly topic: string;
  readonly data: PayloadClass;
  readonly descricao: string;
  /** A valid `data` (notifications.spec.ts validates it against `data`): the OpenAPI document's example of the push, which the portal's catalog shows. */
  readonly exemplo: object;
}

/** The store and times the examples share. */
const ID_LOJA_EXEMPLO = 42;
const ID_ATENDIMENTO_EXEMPLO = '0193a5c2-7d4e-7b1a-9c3f-2e8d5a6b4c10';

/**
 * The events a store is notified of (docs/API.md section 7): pushed to its webhook
 * as `{evento, data}` or kept in its queue. `flag` is the registration field that turns each
 * on or off; `data` is the envelope's data, as published on `topic`. The registration's fields,
 * their OpenAPI schema, the SQL that reads them and the delivery service's intake (from each
 * topic, only the event types listed with it) all come from this list.
 */
export const NOTIFICATIONS = [
  {
    evento: ATENDIMENTO_EVENT_TYPES.criado,
    flag: 'atendimentoCriado',
    padrao: true,
    topic: TOPICS.atendimento,
    data: AtendimentoCriadoData,
    descricao: 'Um novo atendimento foi criado.',
    exemplo: {
      idAtendimento: ID_ATENDIMENTO_EXEMPLO,
      idLoja: ID_LOJA_EXEMPLO,
      canal: 'whatsapp',
      tipo: 'rastreio',
      status: 'aberto',
      dadosCliente: { nome: 'Maria Souza', telefone: '+5511987654321', email: 'maria.souza@example.com' },
      dataAbertura: '2026-11-22T13:15:00.000Z',
    },
  },
  {
    evento: ATENDIMENTO_EVENT_TYPES.mensagem,
    flag: 'atendimentoMensagem',
    padrao: true,
    topic: TOPICS.atendimento,
    data: AtendimentoMensagemData,
    descricao: 'Um atendimento recebeu uma nova mensagem (interação).',
    exemplo: {
      idAtendimento: ID_ATENDIMENTO_EXEMPLO,
      idLoja: ID_LOJA_EXEMPLO,
      canal: 'whatsapp',
      direcao: 'entrada',
      remetente: 'Maria Souza',
      mensagem: 'Meu pedido ainda não chegou. Podem verificar o rastreio?',
      dataHora: '2026-11-22T13:16:04.000Z',
    },
  },
  {
    evento: ATENDIMENTO_EVENT_TYPES.encerrado,
    flag: 'atendimentoEncerrado',
    padrao: true,
    topic: TOPICS.atendimento,
    data: AtendimentoEncerradoData,
    descricao: 'Um atendimento foi encerrado.',
    exemplo: {
      idAtendimento: ID_ATENDIMENTO_EXEMPLO,
      idLoja: ID_LOJA_EXEMPLO,
      canal: 'whatsapp',
      status: 'encerrado',
      dataEncerramento: '2026-11-22T13:24:40.000Z',
      resumo: 'A cliente perguntou pelo pedido; o rastreio mostra saída para entrega hoje.',
    },
  },
  {
    evento: LOJA_EVENT_TYPES.aplicativoRemovido,
    flag: 'aplicativo',
    padrao: true,
    topic: TOPICS.lojas,
    data: AplicativoRemovidoData,
    descricao: 'O aplicativo foi removido da loja.',
    exemplo: { idLoja: ID_LOJA_EXEMPLO, dataRemocao: '2026-11-22T18:02:11.000Z' },
  },
] as const satisfies readonly Notificacao[];

/** A notification's event type (`evento`). */
export type EventoNotificacao = (typeof NOTIFICATIONS)[number]['evento'];
/** The notifications' event types, in the order of NOTIFICATIONS. */
export const EVENTOS_NOTIFICACAO: readonly EventoNotificacao[] = NOTIFICATIONS.map((notificacao) => notificacao.evento);
/** A registration flag: one per notification. */
export type FlagEvento = (typeof NOTIFICATIONS)[number]['flag'];
/** The registration flags, in the order of NOTIFICATIONS. */
export const FLAGS_EVENTO: readonly FlagEvento[] = NOTIFICATIONS.map((notificacao) => notificacao.flag);
/** Every registration flag with its value. */
export type FlagsEvento = Record<FlagEvento, boolean>;
