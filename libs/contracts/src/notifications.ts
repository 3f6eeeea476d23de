import { AtendimentoCriadoData, AtendimentoEncerradoData, AtendimentoMensagemData, ATENDIMENTO_EVENT_TYPES } from './atendimento.events.v1';
import { AplicativoRemovidoData, LOJA_EVENT_TYPES } from './lojas.events.v1';
import { TOPICS } from './topics';
import type { PayloadClass } from './validate-message';

/**
 * The events a store is notified of (docs/API.md section 7): pushed to its webhook
 * as `{evento, data}` or kept in its queue. `flag` is the registration field that turns each
 * on or off; `data` is the envelope's data, as published on `topic`.
 */
export const NOTIFICATIONS: { evento: string; flag: string; topic: string; data: PayloadClass; descricao: string }[] = [
  { evento: ATENDIMENTO_EVENT_TYPES.criado, flag: 'atendimentoCriado', topic: TOPICS.atendimento, data: AtendimentoCriadoData, descricao: 'Um novo atendimento foi criado.' },
  { evento: ATENDIMENTO_EVENT_TYPES.mensagem, flag: 'atendimentoMensagem', topic: TOPICS.atendimento, data: AtendimentoMensagemData, descricao: 'Um atendimento recebeu uma nova mensagem (interação).' },
  { evento: ATENDIMENTO_EVENT_TYPES.encerrado, flag: 'atendimentoEncerrado', topic: TOPICS.atendimento, data: AtendimentoEncerradoData, descricao: 'Um atendimento foi encerrado.' },
  { evento: LOJA_EVENT_TYPES.aplicativoRemovido, flag: 'aplicativo', topic: TOPICS.lojas, data: AplicativoRemovidoData, descricao: 'O aplicativo foi removido da loja.' },
];
