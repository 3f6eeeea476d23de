import {
  AtendimentoEncerrado,
  AtendimentoJaExiste,
  AtendimentoNaoEncontrado,
  atendimentoFolds,
  atendimentoInicial,
  decideAtendimento,
  evolveAtendimento,
  resumoAutomatico,
  type AtendimentoCommand,
  type AtendimentoState,
} from './atendimento';
import type { AtendimentoEvent } from './eventos';

const T0 = '2026-03-01T12:00:00.000Z';
const T1 = '2026-03-01T12:05:00.000Z';
const dadosCliente = { nome: 'Maria Silva', telefone: '+5511999990000', email: null };
const given = (...events: AtendimentoEvent[]): AtendimentoState => events.reduce(evolveAtendimento, atendimentoInicial());
const then = (command: AtendimentoCommand, state: AtendimentoState) => decideAtendimento(command, state);

const abrir: AtendimentoCommand = {
  acao: 'abrir', idAtendimento: 'a1', idLoja: 7, canal: 'whatsapp', tipo: 'rastreio', dadosCliente, idPedido: null, mensagemInicial: null, agora: T0,
};
const criado: AtendimentoEvent = {
  type: 'atendimento.criado',
  data: { idAtendimento: 'a1', idLoja: 7, canal: 'whatsapp', tipo: 'rastreio', status: 'aberto', dadosCliente, dataAbertura: T0, idPedido: null },
};
const mensagem = (idMensagem: string, direcao: 'entrada' | 'saida', texto: string): AtendimentoEvent => ({
  type: 'atendimento.mensagem',
  data: { idAtendimento: 'a1', idLoja: 7, canal: 'whatsapp', idMensagem, direcao, remetente: direcao === 'entrada' ? 'cliente' : 'ana', mensagem: texto, dataHora: T1 },
});
const encerrado: AtendimentoEvent = {
  type: 'atendimento.encerrado',
  data: { idAtendimento: 'a1', idLoja: 7, canal: 'whatsapp', status: 'encerrado', dataEncerramento: T1, resumo: 'ok' },
};

describe('atendimento', () => {
  it('opens a conversation: aberto, atendimento.criado', () => {
    expect(then(abrir, given())).toEqual([criado]);
    expect(given(criado)).toMatchObject({ existe: true, status: 'aberto' });
  });

  it('records the opening message as an entrada from the customer, after the creation', () => {
    const events = then({ ...abrir, mensagemInicial: { idMensagem: 'm1', mensagem: 'Onde está meu pedido?' } }, given());
    expect(events).toEqual([
      criado,
      { type: 'atendimento.mensagem', data: { idAtendimento: 'a1', idLoja: 7, canal: 'whatsapp', idMensagem: 'm1', direcao: 'entrada', remetente: 'cliente', mensagem: 'Onde está meu pedido?', dataHora: T0 } },
    ]);
  });

  it('refuses to open the same conversation twice', () => {
    expect(() => then(abrir, given(criado))).toThrow(AtendimentoJaExiste);
  });

  it('adds messages to an open conversation, which stays aberto', () => {
    const events = then({ acao: 'registrarMensagens', idLoja: 7, agora: T1, mensagens: [{ idMensagem: 'm2', direcao: 'saida', remetente: 'ana', mensagem: 'Olá!' }] }, given(criado));
    expect(events).toEqual([mensagem('m2', 'saida', 'Olá!')]);
    expect(given(criado, ...events)).toMatchObject({ status: 'aberto', mensagensLoja: 1 });
  });

  it('closes an open conversation with the given summary', () => {
    expect(then({ acao: 'encerrar', idLoja: 7, resumo: 'ok', agora: T1 }, given(criado))).toEqual([encerrado]);
    expect(given(criado, encerrado)).toMatchObject({ status: 'encerrado' });
  });

  it('refuses messages and closing on a closed conversation', () => {
    const closed = given(criado, encerrado);
    expect(() => then({ acao: 'registrarMensagens', idLoja: 7, agora: T1, mensagens: [{ idMensagem: 'm3', direcao: 'entrada', remetente: 'cliente', mensagem: 'oi' }] }, closed)).toThrow(AtendimentoEncerrado);
    expect(() => then({ acao: 'encerrar', idLoja: 7, resumo: null, agora: T1 }, closed)).toThrow(AtendimentoEncerrado);
  });

  it('decides a message from the opening, the closing and the last event alone, as from the whole stream', () => {
    const comando: AtendimentoCommand = { acao: 'registrarMensagens', idLoja: 7, agora: T1, mensagens: [{ idMensagem: 'm9', direcao: 'entrada', remetente: 'cliente', mensagem: 'oi' }] };
    const tipos = atendimentoFolds(comando) ?? [];
    const decisao = (events: AtendimentoEvent[]) => {
      try {
        return then(comando, given(...events));
      } catch (error) {
        return (error as Error).constructor;
      }
    };
    for (const stream of [[criado], [criado, mensagem('m1', 'entrada', 'a'), mensagem('m2', 'saida', 'b')], [criado, mensagem('m1', 'entrada', 'a'), encerrado]]) {
      const lidos = stream.filter((event, index) => tipos.includes(event.type) || index === stream.length - 1);
      expect(decisao(lidos)).toEqual(decisao(stream));
    }
    // Closing counts the messages for its summary: it reads them all.
    expect(atendimentoFolds({ acao: 'encerrar', idLoja: 7, resumo: null, agora: T1 })).toBeUndefined();
  });

  it('treats an unknown conversation and another store’s alike', () => {
    expect(() => then({ acao: 'encerrar', idLoja: 7, resumo: null, agora: T1 }, given())).toThrow(AtendimentoNaoEncontrado);
    expect(() => then({ acao: 'encerrar', idLoja: 8, resumo: null, agora: T1 }, given(criado))).toThrow(AtendimentoNaoEncontrado);
  });

  it('writes a deterministic summary from the conversation when none is given', () => {
    const state = given(criado, mensagem('m1', 'entrada', 'Onde está meu pedido 123?'), mensagem('m2', 'saida', 'Já verifico.'), mensagem('m3', 'saida', 'Saiu para entrega hoje.'));
    const [event] = then({ acao: 'encerrar', idLoja: 7, resumo: null, agora: T1 }, state);
    const resumo = (event.data as { resumo: string }).resumo;
    expect(resumo).toBe(
      `Atendimento de rastreio por WhatsApp com Maria Silva, aberto em ${T0}. 3 mensagens: 1 do cliente e 2 da loja. ` +
        'Primeira mensagem do cliente: “Onde está meu pedido 123?”. Última resposta: “Saiu para entrega hoje.”.',
    );
    expect(then({ acao: 'encerrar', idLoja: 7, resumo: null, agora: T1 }, state)).toEqual([event]);
  });

  it('keeps the summary within 2000 characters', () => {
    const longa = 'x'.repeat(4000);
    const state = given({ ...criado, data: { ...criado.data, dadosCliente: { ...dadosCliente, nome: 'n'.repeat(150) } } }, mensagem('m1', 'entrada', longa), mensagem('m2', 'saida', longa));
    expect(resumoAutomatico(state as Extract<AtendimentoState, { existe: true }>).length).toBeLessThanOrEqual(2000);
  });

  it('never cuts an emoji of a quoted message in half', () => {
    const comEmoji = '🙂'.repeat(800);
    const state = given(criado, mensagem('m1', 'entrada', comEmoji), mensagem('m2', 'saida', comEmoji));
    const resumo = resumoAutomatico(state as Extract<AtendimentoState, { existe: true }>);
    expect(resumo).toContain(`“${'🙂'.repeat(699)}…”`);
    expect(resumo).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
  });
});
