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
}

/**
 * The events a store is notified of (docs/API.md section 7): pushed to its webhook
 * as `{evento, data}` or kept in its queue. `flag` is the registration field that turns each
 * on or off; `data` is the envelope's data, as published on `topic`. The registration's fields,
 * their OpenAPI schema, the SQL that reads them and the delivery service's intake (from each
 * topic, only the event types listed with it) all come from this list.
 */
export const NOTIFICATIONS = [
  { evento: ATENDIMENTO_EVENT_TYPES.criado, flag: 'atendimentoCriado', padrao: true, topic: TOPICS.atendimento, data: AtendimentoCriadoData, descricao: 'Um novo atendimento foi criado.' },
  { evento: ATENDIMENTO_EVENT_TYPES.mensagem, flag: 'atendimentoMensagem', padrao: true, topic: TOPICS.atendimento, data: AtendimentoMensagemData, descricao: 'Um atendimento recebeu uma nova mensagem (interação).' },
  { evento: ATENDIMENTO_EVENT_TYPES.encerrado, flag: 'atendimentoEncerrado', padrao: true, topic: TOPICS.atendimento, data: AtendimentoEncerradoData, descricao: 'Um atendimento foi encerrado.' },
  { evento: LOJA_EVENT_TYPES.aplicativoRemovido, flag: 'aplicativo', padrao: true, topic: TOPICS.lojas, data: AplicativoRemovidoData, descricao: 'O aplicativo foi removido da loja.' },
] as const satisfies readonly Notificacao[];

/** A registration flag: one per notification. */
export type FlagEvento = (typeof NOTIFICATIONS)[number]['flag'];
/** The registration flags, in the order of NOTIFICATIONS. */
export const FLAGS_EVENTO: readonly FlagEvento[] = NOTIFICATIONS.map((notificacao) => notificacao.flag);
/** Every registration flag with its value. */
export type FlagsEvento = Record<FlagEvento, boolean>;
