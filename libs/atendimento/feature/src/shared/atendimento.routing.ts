import {
  ATENDIMENTO_CONTRACT,
  messagesOn,
  TOPICS,
  type AtendimentoCriadoData,
  type AtendimentoEncerradoData,
  type AtendimentoMensagemData,
} from '@trilha/contracts';
import type { OutboxRouting } from '@trilha/event-store';
import type {
  AtendimentoServiceEvent,
  DadosAtendimentoCriado,
  DadosAtendimentoEncerrado,
  DadosAtendimentoMensagem,
} from '@trilha/atendimento-domain';

/**
 * The atendimento context's adapter from its domain events (`@trilha/atendimento-domain`) to
 * the payloads of `atendimento.events.v1` (`@trilha/contracts`): the one place that knows both.
 * Each payload is exactly the fields of docs/API.md section 7; what only this service needs
 * (`idPedido`, `idMensagem`) stays here.
 */

export function atendimentoCriadoV1(data: DadosAtendimentoCriado): AtendimentoCriadoData {
  const { idAtendimento, idLoja, canal, tipo, status, dadosCliente, dataAbertura } = data;
  const { nome, telefone, email } = dadosCliente;
  return { idAtendimento, idLoja, canal, tipo, status, dadosCliente: { nome, telefone, email }, dataAbertura };
}

export function atendimentoMensagemV1(data: DadosAtendimentoMensagem): AtendimentoMensagemData {
  const { idAtendimento, idLoja, canal, direcao, remetente, mensagem, dataHora } = data;
  return { idAtendimento, idLoja, canal, direcao, remetente, mensagem, dataHora };
}

export function atendimentoEncerradoV1(data: DadosAtendimentoEncerrado): AtendimentoEncerradoData {
  const { idAtendimento, idLoja, canal, status, dataEncerramento, resumo } = data;
  return { idAtendimento, idLoja, canal, status, dataEncerramento, resumo };
}

const v1 = messagesOn(TOPICS.atendimento, ATENDIMENTO_CONTRACT);

/**
 * Conversation events go to atendimento.events.v1 (keyed by store by the outbox, so one
 * conversation's events stay in order); agent events stay private.
 */
export const atendimentoRouting: OutboxRouting<AtendimentoServiceEvent> = (event) => {
  switch (event.type) {
    case 'atendimento.criado':
      return [v1(event.type, atendimentoCriadoV1(event.data))];
    case 'atendimento.mensagem':
      return [v1(event.type, atendimentoMensagemV1(event.data))];
    case 'atendimento.encerrado':
      return [v1(event.type, atendimentoEncerradoV1(event.data))];
    case 'agente.criado':
      return [];
  }
};
