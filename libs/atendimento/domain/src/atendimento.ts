import { cortarTexto } from './cortar';
import { ATENDIMENTO_EVENTOS, type AtendimentoEvent, type Canal, type DadosClienteAtendimento, type Direcao, type TipoAtendimento } from './eventos';

/**
 * The support conversation (atendimento) aggregate: pure decide/evolve, no I/O. Its state
 * machine (docs/API.md section 5): created `aberto`; messages keep it `aberto`; closing makes it
 * `encerrado`, after which it takes nothing more.
 */

/** The sender of the customer's own messages (the opening one, and those sent to an agent). */
export const REMETENTE_CLIENTE = 'cliente';

export interface NovaMensagem {
  idMensagem: string;
  direcao: Direcao;
  remetente: string;
  mensagem: string;
}

export type AtendimentoCommand =
  | {
      acao: 'abrir';
      idAtendimento: string;
      idLoja: number;
      canal: Canal;
      tipo: TipoAtendimento;
      dadosCliente: DadosClienteAtendimento;
      idPedido: string | null;
      /** The customer's first message, recorded as an `entrada` right after the opening. */
      mensagemInicial: { idMensagem: string; mensagem: string } | null;
      agora: string;
    }
  | { acao: 'registrarMensagens'; idLoja: number; mensagens: NovaMensagem[]; agora: string }
  | { acao: 'encerrar'; idLoja: number; resumo: string | null; agora: string };

export type AtendimentoState =
  | { existe: false }
  | {
      existe: true;
      idAtendimento: string;
      idLoja: number;
      canal: Canal;
      tipo: TipoAtendimento;
      status: 'aberto' | 'encerrado';
      dadosCliente: DadosClienteAtendimento;
      dataAbertura: string;
      mensagensCliente: number;
      mensagensLoja: number;
      primeiraMensagemCliente: string | null;
      ultimaResposta: string | null;
    };

export class AtendimentoNaoEncontrado extends Error {
  constructor() {
    super('Atendimento não encontrado.');
  }
}

export class AtendimentoEncerrado extends Error {
  constructor(idAtendimento: string) {
    super(`O atendimento ${idAtendimento} está encerrado e não aceita mais alterações.`);
  }
}

export class AtendimentoJaExiste extends Error {
  constructor(idAtendimento: string) {
    super(`O atendimento ${idAtendimento} já existe.`);
  }
}

export const atendimentoInicial = (): AtendimentoState => ({ existe: false });

export const atendimentoStreamId = (idAtendimento: string): string => `atendimento-${idAtendimento}`;

export function decideAtendimento(command: AtendimentoCommand, state: AtendimentoState): AtendimentoEvent[] {
  if (command.acao === 'abrir') {
    if (state.existe) throw new AtendimentoJaExiste(command.idAtendimento);
    const { idAtendimento, idLoja, canal, tipo, dadosCliente, idPedido, agora } = command;
    const criado: AtendimentoEvent = {
      type: ATENDIMENTO_EVENTOS.criado,
      data: { idAtendimento, idLoja, canal, tipo, status: 'aberto', dadosCliente, dataAbertura: agora, idPedido },
    };
    if (!command.mensagemInicial) return [criado];
    const { idMensagem, mensagem } = command.mensagemInicial;
    return [criado, mensagemEvent(idAtendimento, idLoja, canal, { idMensagem, direcao: 'entrada', remetente: REMETENTE_CLIENTE, mensagem }, agora)];
  }
  // Another store's conversation is as unknown as one that does not exist.
  if (!state.existe || state.idLoja !== command.idLoja) throw new AtendimentoNaoEncontrado();
  if (state.status === 'encerrado') throw new AtendimentoEncerrado(state.idAtendimento);
  switch (command.acao) {
    case 'registrarMensagens':
      return command.mensagens.map((mensagem) => mensagemEvent(state.idAtendimento, state.idLoja, state.canal, mensagem, command.agora));
    case 'encerrar':
      return [{
        type: ATENDIMENTO_EVENTOS.encerrado,
        data: {
          idAtendimento: state.idAtendimento,
          idLoja: state.idLoja,
          canal: state.canal,
          status: 'encerrado',
          dataEncerramento: command.agora,
          resumo: command.resumo ?? resumoAutomatico(state),
        },
      }];
  }
}

function mensagemEvent(idAtendimento: string, idLoja: number, canal: Canal, mensagem: NovaMensagem, agora: string): AtendimentoEvent {
  return { type: ATENDIMENTO_EVENTOS.mensagem, data: { idAtendimento, idLoja, canal, ...mensagem, dataHora: agora } };
}

export function evolveAtendimento(state: AtendimentoState, event: AtendimentoEvent): AtendimentoState {
  switch (event.type) {
    case ATENDIMENTO_EVENTOS.criado: {
      const { idAtendimento, idLoja, canal, tipo, dadosCliente, dataAbertura } = event.data;
      return {
        existe: true, idAtendimento, idLoja, canal, tipo, status: 'aberto', dadosCliente, dataAbertura,
        mensagensCliente: 0, mensagensLoja: 0, primeiraMensagemCliente: null, ultimaResposta: null,
      };
    }
    case ATENDIMENTO_EVENTOS.mensagem: {
      if (!state.existe) return state;
      const { direcao, mensagem } = event.data;
      return direcao === 'entrada'
        ? { ...state, mensagensCliente: state.mensagensCliente + 1, primeiraMensagemCliente: state.primeiraMensagemCliente ?? mensagem }
        : { ...state, mensagensLoja: state.mensagensLoja + 1, ultimaResposta: mensagem };
    }
    case ATENDIMENTO_EVENTOS.encerrado:
      return state.existe ? { ...state, status: 'encerrado' } : state;
  }
}

/**
 * What each command's decision folds: a message needs only the conversation's opening and
 * whether it was closed, not the messages before it; closing needs them all (its automatic
 * summary counts them).
 */
export function atendimentoFolds(command: AtendimentoCommand): readonly AtendimentoEvent['type'][] | undefined {
  return command.acao === 'registrarMensagens' ? [ATENDIMENTO_EVENTOS.criado, ATENDIMENTO_EVENTOS.encerrado] : undefined;
}

export const atendimentoDecider = { decide: decideAtendimento, evolve: evolveAtendimento, initialState: atendimentoInicial, folds: atendimentoFolds };

export const RESUMO_MAX = 2000;
const CITACAO_MAX = 700;

const TIPO_ROTULO: Record<TipoAtendimento, string> = {
  duvida: 'dúvida', reclamacao: 'reclamação', troca: 'troca', devolucao: 'devolução', rastreio: 'rastreio', outro: 'outro assunto',
};
const CANAL_ROTULO: Record<Canal, string> = { whatsapp: 'WhatsApp', chat: 'chat', email: 'e-mail', telefone: 'telefone', marketplace: 'marketplace' };

const contagem = (n: number, singular: string, plural: string) => `${n} ${n === 1 ? singular : plural}`;
const citar = (texto: string) => `“${cortarTexto(texto.replace(/\s+/g, ' ').trim(), CITACAO_MAX)}”`;

/**
 * The summary written when a conversation is closed without one: deterministic (the same
 * conversation always gives the same text), built from its type, channel, customer, messages,
 * the customer's first message and the last reply; at most 2000 characters, cut between
 * characters (an emoji stays whole: half of one is not valid JSON to PostgreSQL).
 */
export function resumoAutomatico(state: Extract<AtendimentoState, { existe: true }>): string {
  const total = state.mensagensCliente + state.mensagensLoja;
  const partes = [
    `Atendimento de ${TIPO_ROTULO[state.tipo]} por ${CANAL_ROTULO[state.canal]} com ${state.dadosCliente.nome}, aberto em ${state.dataAbertura}.`,
    total === 0
      ? 'Nenhuma mensagem trocada.'
      : `${contagem(total, 'mensagem', 'mensagens')}: ${contagem(state.mensagensCliente, 'do cliente', 'do cliente')} e ${contagem(state.mensagensLoja, 'da loja', 'da loja')}.`,
  ];
  if (state.primeiraMensagemCliente) partes.push(`Primeira mensagem do cliente: ${citar(state.primeiraMensagemCliente)}.`);
  if (state.ultimaResposta) partes.push(`Última resposta: ${citar(state.ultimaResposta)}.`);
  return cortarTexto(partes.join(' '), RESUMO_MAX);
}
