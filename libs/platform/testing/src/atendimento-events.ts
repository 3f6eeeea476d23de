import type { AtendimentoCriadoData, AtendimentoEncerradoData, AtendimentoMensagemData, EventEnvelope } from '@trilha/contracts';
import { envelope } from './event-publisher';
import { TEST_CUSTOMER } from './conversations';

/** An atendimento.criado envelope of the store: a conversation of TEST_CUSTOMER's opened now, with a fresh id unless told. */
export function atendimentoCriado(
  idLoja: number,
  campos: Partial<Pick<AtendimentoCriadoData, 'idAtendimento' | 'canal'>> = {},
): EventEnvelope<AtendimentoCriadoData> {
  const { idAtendimento = `at-${Math.random().toString(36).slice(2, 10)}`, canal = 'whatsapp' } = campos;
  return envelope('atendimento.criado', idLoja, {
    idAtendimento, idLoja, canal, tipo: 'duvida', status: 'aberto', dadosCliente: TEST_CUSTOMER, dataAbertura: new Date().toISOString(),
  });
}

/** An atendimento.mensagem envelope of the store: a customer's inbound message, stamped now; other fields as given. */
export function atendimentoMensagem(
  idLoja: number,
  mensagem = 'Onde está meu pedido?',
  campos: Partial<Pick<AtendimentoMensagemData, 'idAtendimento' | 'canal'>> = {},
): EventEnvelope<AtendimentoMensagemData> {
  const { idAtendimento = 'at-1', canal = 'whatsapp' } = campos;
  return envelope('atendimento.mensagem', idLoja, {
    idAtendimento, idLoja, canal, direcao: 'entrada', remetente: 'cliente', mensagem, dataHora: new Date().toISOString(),
  });
}

/** An atendimento.encerrado envelope of the store, closed now unless told; other fields as given. */
export function atendimentoEncerrado(
  idLoja: number,
  campos: Partial<Pick<AtendimentoEncerradoData, 'idAtendimento' | 'canal' | 'dataEncerramento' | 'resumo'>> = {},
): EventEnvelope<AtendimentoEncerradoData> {
  const { idAtendimento = 'at-1', canal = 'whatsapp', dataEncerramento = new Date().toISOString(), resumo = 'Pedido localizado.' } = campos;
  return envelope('atendimento.encerrado', idLoja, { idAtendimento, idLoja, canal, status: 'encerrado', dataEncerramento, resumo });
}
