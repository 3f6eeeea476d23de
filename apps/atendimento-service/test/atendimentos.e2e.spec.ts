import { TOPICS } from '@trilha/contracts';
import { apiClient, createStore, eventually, expectInvalid, expectInvalidExactly, expectProblem, testStack, topicReader, type ReceivedMessage } from '@trilha/testing';

const stack = testStack();
const api = apiClient(stack.baseUrl, stack.caFile);
const UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
/** The platform's ids (@trilha/ids): UUIDv7 in the canonical form. */
const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const cliente = { nome: 'Maria Silva', telefone: '+5511999990000', email: 'maria@example.com' };

let kafka: Awaited<ReturnType<typeof topicReader>>;
beforeAll(async () => {
  kafka = await topicReader(stack, TOPICS.atendimento);
});
afterAll(() => kafka.stop());

/** The conversation's events on atendimento.events.v1, in topic order. */
const eventosDe = (idAtendimento: string): ReceivedMessage[] => kafka.received.filter((message) => message.envelope.data.idAtendimento === idAtendimento);
const aguardarEventos = (idAtendimento: string, count: number) =>
  eventually(`${count} events of ${idAtendimento} on Kafka`, () => (eventosDe(idAtendimento).length >= count ? eventosDe(idAtendimento) : undefined));

describe('support conversations (docs/API.md section 5)', () => {
  it('opens a conversation with its first message: atendimento.criado, then atendimento.mensagem (entrada)', async () => {
    const loja = await createStore();
    const response = await api('POST', '/atendimentos', {
      token: loja.token,
      body: { canal: 'whatsapp', tipo: 'rastreio', dadosCliente: cliente, mensagem: 'Onde está meu pedido?', idPedido: 'p-123' },
    });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      idAtendimento: expect.stringMatching(UUID_V7), idLoja: loja.idLoja, canal: 'whatsapp', tipo: 'rastreio', status: 'aberto', dadosCliente: cliente,
      dataAbertura: expect.stringMatching(UTC),
    });
    const { idAtendimento, dataAbertura } = response.body;

    const [criado, mensagem] = await aguardarEventos(idAtendimento, 2);
    expect(criado.key).toBe(String(loja.idLoja));
    expect(criado.envelope).toMatchObject({ type: 'atendimento.criado', idLoja: loja.idLoja, schemaVersion: 1 });
    expect(criado.envelope.data).toEqual({ idAtendimento, idLoja: loja.idLoja, canal: 'whatsapp', tipo: 'rastreio', status: 'aberto', dadosCliente: cliente, dataAbertura });
    expect(mensagem.key).toBe(String(loja.idLoja));
    expect(mensagem.envelope.type).toBe('atendimento.mensagem');
    expect(mensagem.envelope.data).toEqual({
      idAtendimento, idLoja: loja.idLoja, canal: 'whatsapp', direcao: 'entrada', remetente: 'cliente', mensagem: 'Onde está meu pedido?', dataHora: expect.stringMatching(UTC),
    });

    const lido = await api('GET', `/atendimentos/${idAtendimento}`, { token: loja.token });
    expect(lido.status).toBe(200);
    expect(lido.body).toMatchObject({ idAtendimento, status: 'aberto', idPedido: 'p-123', totalMensagens: 1, dataEncerramento: null, resumo: null });
    expect(lido.body.mensagens).toEqual([{ idMensagem: expect.stringMatching(UUID_V7), direcao: 'entrada', remetente: 'cliente', mensagem: 'Onde está meu pedido?', dataHora: mensagem.envelope.data.dataHora }]);
  });

  it('opens without optional customer fields, which the event carries as null', async () => {
    const loja = await createStore();
    const response = await api('POST', '/atendimentos', { token: loja.token, body: { canal: 'chat', tipo: 'duvida', dadosCliente: { nome: 'João' } } });
    expect(response.status).toBe(201);
    expect(response.body.dadosCliente).toEqual({ nome: 'João', telefone: null, email: null });
    const [criado] = await aguardarEventos(response.body.idAtendimento, 1);
    expect(criado.envelope.data.dadosCliente).toEqual({ nome: 'João', telefone: null, email: null });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(eventosDe(response.body.idAtendimento)).toHaveLength(1);
  });

  it('adds messages while aberto, each an atendimento.mensagem, in the conversation’s order', async () => {
    const loja = await createStore();
    const { body: { idAtendimento } } = await api('POST', '/atendimentos', { token: loja.token, body: { canal: 'email', tipo: 'troca', dadosCliente: cliente } });
    const resposta = await api('POST', `/atendimentos/${idAtendimento}/mensagens`, { token: loja.token, body: { direcao: 'saida', remetente: 'atendente:ana', mensagem: 'Olá! Como posso ajudar?' } });
    expect(resposta.status).toBe(201);
    expect(resposta.body).toEqual({ idMensagem: expect.stringMatching(UUID_V7), direcao: 'saida', remetente: 'atendente:ana', mensagem: 'Olá! Como posso ajudar?', dataHora: expect.stringMatching(UTC) });

    // Concurrent messages: the topic's order is the conversation's order.
    await Promise.all(Array.from({ length: 10 }, (_, i) =>
      api('POST', `/atendimentos/${idAtendimento}/mensagens`, { token: loja.token, body: { direcao: i % 2 ? 'saida' : 'entrada', remetente: 'r', mensagem: `mensagem ${i}` } })
        .then((r) => expect(r.status).toBe(201))));
    const eventos = await aguardarEventos(idAtendimento, 12);
    const lido = await api('GET', `/atendimentos/${idAtendimento}`, { token: loja.token });
    expect(lido.body.status).toBe('aberto');
    expect(lido.body.totalMensagens).toBe(11);
    expect(eventos.slice(1).map((e) => e.envelope.data.mensagem)).toEqual(lido.body.mensagens.map((m: { mensagem: string }) => m.mensagem));
    expect(eventos.every((e) => e.key === String(loja.idLoja))).toBe(true);
  });

  it('closes with the given summary: atendimento.encerrado; afterwards 409 and nothing written', async () => {
    const loja = await createStore();
    const { body: { idAtendimento } } = await api('POST', '/atendimentos', { token: loja.token, body: { canal: 'telefone', tipo: 'reclamacao', dadosCliente: cliente } });
    const encerrado = await api('POST', `/atendimentos/${idAtendimento}/encerrar`, { token: loja.token, body: { resumo: 'Cliente atendido, reembolso aprovado.' } });
    expect(encerrado.status).toBe(200);
    expect(encerrado.body).toMatchObject({ idAtendimento, status: 'encerrado', resumo: 'Cliente atendido, reembolso aprovado.', dataEncerramento: expect.stringMatching(UTC), mensagens: [] });
    const [, evento] = await aguardarEventos(idAtendimento, 2);
    expect(evento.envelope.type).toBe('atendimento.encerrado');
    expect(evento.envelope.data).toEqual({
      idAtendimento, idLoja: loja.idLoja, canal: 'telefone', status: 'encerrado', dataEncerramento: encerrado.body.dataEncerramento, resumo: 'Cliente atendido, reembolso aprovado.',
    });

    expectProblem(await api('POST', `/atendimentos/${idAtendimento}/mensagens`, { token: loja.token, body: { direcao: 'entrada', remetente: 'cliente', mensagem: 'ainda aí?' } }), 409);
    expectProblem(await api('POST', `/atendimentos/${idAtendimento}/encerrar`, { token: loja.token, body: {} }), 409);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(eventosDe(idAtendimento)).toHaveLength(2);
    expect((await api('GET', `/atendimentos/${idAtendimento}`, { token: loja.token })).body.totalMensagens).toBe(0);
  });

  it('writes the summary from the conversation when none is given', async () => {
    const loja = await createStore();
    const { body: { idAtendimento, dataAbertura } } = await api('POST', '/atendimentos', {
      token: loja.token, body: { canal: 'whatsapp', tipo: 'devolucao', dadosCliente: cliente, mensagem: 'Quero devolver o tênis.' },
    });
    await api('POST', `/atendimentos/${idAtendimento}/mensagens`, { token: loja.token, body: { direcao: 'saida', remetente: 'atendente:ana', mensagem: 'Enviamos a etiqueta de devolução por e-mail.' } });
    const encerrado = await api('POST', `/atendimentos/${idAtendimento}/encerrar`, { token: loja.token });
    expect(encerrado.status).toBe(200);
    const resumo = encerrado.body.resumo as string;
    expect(resumo).toBe(
      `Atendimento de devolução por WhatsApp com Maria Silva, aberto em ${dataAbertura}. 2 mensagens: 1 do cliente e 1 da loja. ` +
        'Primeira mensagem do cliente: “Quero devolver o tênis.”. Última resposta: “Enviamos a etiqueta de devolução por e-mail.”.',
    );
    const [, , , evento] = await aguardarEventos(idAtendimento, 4);
    expect(evento.envelope.data.resumo).toBe(resumo);
  });

  it('lists the store’s conversations, newest first, filtered and paginated', async () => {
    const loja = await createStore();
    const ids: string[] = [];
    for (const tipo of ['duvida', 'troca', 'outro']) {
      const created = await api('POST', '/atendimentos', { token: loja.token, body: { canal: 'chat', tipo, dadosCliente: cliente } });
      ids.push(created.body.idAtendimento);
    }
    await api('POST', `/atendimentos/${ids[0]}/encerrar`, { token: loja.token, body: { resumo: 'ok' } });
    const todos = await api('GET', '/atendimentos', { token: loja.token });
    expect(todos.status).toBe(200);
    expect(todos.body).toMatchObject({ pagina: 1, porPagina: 20, total: 3, totalPaginas: 1 });
    expect(todos.body.atendimentos.map((a: { idAtendimento: string }) => a.idAtendimento)).toEqual([...ids].reverse());
    expect(todos.body.atendimentos[0]).not.toHaveProperty('mensagens');

    const abertos = await api('GET', '/atendimentos?status=aberto&pagina=2&porPagina=1', { token: loja.token });
    expect(abertos.body).toMatchObject({ pagina: 2, porPagina: 1, total: 2, totalPaginas: 2 });
    expect(abertos.body.atendimentos.map((a: { idAtendimento: string }) => a.idAtendimento)).toEqual([ids[1]]);
    const encerrados = await api('GET', '/atendimentos?status=encerrado', { token: loja.token });
    expect(encerrados.body.atendimentos).toEqual([expect.objectContaining({ idAtendimento: ids[0], status: 'encerrado', resumo: 'ok' })]);

    for (const query of ['pagina=0', 'porPagina=101', 'porPagina=0', 'pagina=abc', 'status=fechado', 'outro=1']) {
      expectProblem(await api('GET', `/atendimentos?${query}`, { token: loja.token }), 400);
    }
    // Another store sees none of them.
    const outra = await createStore();
    expect((await api('GET', '/atendimentos', { token: outra.token })).body.total).toBe(0);
  });
});

describe('bad input: clear problems, nothing written', () => {
  it('names every invalid field of an opening', async () => {
    const loja = await createStore();
    const response = await api('POST', '/atendimentos', {
      token: loja.token,
      body: { canal: 'sms', tipo: 'elogio', dadosCliente: { nome: 'x'.repeat(151), email: 'não-é-email', extra: 1 }, mensagem: 'x'.repeat(4001), idPedido: 'p'.repeat(33), outro: true },
    });
    expectInvalid(response, 'canal', 'tipo', 'dadosCliente.nome', 'dadosCliente.email', 'dadosCliente.extra', 'mensagem', 'idPedido', 'outro');
    expectProblem(await api('POST', '/atendimentos', { token: loja.token, body: { canal: 'chat', tipo: 'duvida' } }), 400);
    expectProblem(await api('POST', '/atendimentos', { token: loja.token, rawBody: '{"canal": ' }), 400);
    expect((await api('GET', '/atendimentos', { token: loja.token })).body.total).toBe(0);
  });

  it('refuses a bad message, an oversize summary, and another store’s or an unknown conversation', async () => {
    const loja = await createStore();
    const outra = await createStore();
    const { body: { idAtendimento } } = await api('POST', '/atendimentos', { token: loja.token, body: { canal: 'marketplace', tipo: 'outro', dadosCliente: cliente } });

    const invalida = await api('POST', `/atendimentos/${idAtendimento}/mensagens`, { token: loja.token, body: { direcao: 'lateral', remetente: 'r'.repeat(101), mensagem: 'm'.repeat(4001) } });
    expectInvalidExactly(invalida, 'direcao', 'mensagem', 'remetente');
    expectProblem(await api('POST', `/atendimentos/${idAtendimento}/mensagens`, { token: loja.token, body: { direcao: 'entrada', remetente: 'c', mensagem: '' } }), 400);
    expectProblem(await api('POST', `/atendimentos/${idAtendimento}/encerrar`, { token: loja.token, body: { resumo: 'r'.repeat(2001) } }), 400);

    const mensagem = { direcao: 'entrada', remetente: 'cliente', mensagem: 'oi' };
    expectProblem(await api('GET', `/atendimentos/${idAtendimento}`, { token: outra.token }), 404);
    expectProblem(await api('POST', `/atendimentos/${idAtendimento}/mensagens`, { token: outra.token, body: mensagem }), 404);
    expectProblem(await api('POST', `/atendimentos/${idAtendimento}/encerrar`, { token: outra.token }), 404);
    expectProblem(await api('GET', '/atendimentos/nao-existe', { token: loja.token }), 404);
    expectProblem(await api('POST', '/atendimentos/nao-existe/mensagens', { token: loja.token, body: mensagem }), 404);
    expectProblem(await api('GET', `/atendimentos/${'x'.repeat(65)}`, { token: loja.token }), 404);

    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(eventosDe(idAtendimento).map((e) => e.envelope.type)).toEqual(['atendimento.criado']);
    const lido = await api('GET', `/atendimentos/${idAtendimento}`, { token: loja.token });
    expect(lido.body).toMatchObject({ status: 'aberto', totalMensagens: 0 });
  });

  it('needs a store token', async () => {
    expectProblem(await api('GET', '/atendimentos'), 401);
    expectProblem(await api('POST', '/atendimentos', { body: { canal: 'chat', tipo: 'duvida', dadosCliente: cliente } }), 401);
  });
});
