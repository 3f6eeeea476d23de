import { createHash, randomBytes } from 'node:crypto';
import { TOPICS } from '@trilha/contracts';
import { apiClient, createStore, envelope, eventPublisher, eventually, expectInvalid, expectProblem, handledBy, pedidoRef, testStack, topicReader, volumeRef, type TestStore } from '@trilha/testing';

const stack = testStack();
const api = apiClient(stack.baseUrl, stack.caFile);
const kafka = eventPublisher(stack);
/** The platform's ids (@trilha/ids): UUIDv7 in the canonical form. */
const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The store's built-in agent, there from the moment the store exists. */
async function assistenteDe(loja: { token: string }) {
  const response = await api('GET', '/agentes', { token: loja.token });
  return response.body.agentes.find((agente: { nome: string }) => agente.nome === 'Assistente de rastreio');
}

const conversar = (loja: { token: string }, idAgente: string, body: object) => api('POST', `/agentes/${idAgente}/conversar`, { token: loja.token, body });

/** Tracking events as the tracking service publishes them (libs/contracts tracking.events.v1). */
function pedidoDe(idLoja: number, numeroPedido: string, extra: { pedidoCanal?: string; tipoPedido?: 'envio' | 'reversa' } = {}) {
  return { ...pedidoRef(numeroPedido, extra), idLoja };
}
type Pedido = ReturnType<typeof pedidoDe>;
const hash = (text: string) => createHash('sha1').update(text).digest('hex');
const registrado = (pedido: Pedido, codigo: string, dataHora: string, descricao: string, visivelClienteFinal = true, encerraVolume = false) => ({
  ...volumeRef(pedido, codigo), hash: hash(`${pedido.idPedido}|${codigo}|${dataHora}|${descricao}`), dataHora, descricao, sigla: '', visivelClienteFinal, origem: 'api', encerraVolume,
});

/**
 * Publishes a tracking event as the tracking service's outbox relay would, and waits until the
 * atendimento service has handled it.
 */
async function publicarRastreio(idLoja: number, type: string, data: object): Promise<void> {
  const evento = envelope(type, idLoja, data);
  await kafka.publish(TOPICS.tracking, [evento]);
  await handledBy(stack.dataDir, 'atendimento-service', [evento.id]);
}

let atendimentoEvents: Awaited<ReturnType<typeof topicReader>>;
beforeAll(async () => {
  atendimentoEvents = await topicReader(stack, TOPICS.atendimento);
});
afterAll(async () => {
  await kafka.close();
  await atendimentoEvents.stop();
});

describe('virtual agents (docs/API.md section 6)', () => {
  it('gives every new store the built-in "Assistente de rastreio", readable as soon as the store is created, once', async () => {
    const loja = await createStore();
    const assistente = await assistenteDe(loja);
    expect(assistente).toEqual({ idAgente: expect.any(String), nome: 'Assistente de rastreio', descricao: expect.any(String), habilidades: ['rastreio', 'faq'], ativo: true });
    // The store's creation, arriving over Kafka later, creates nothing more.
    await handledBy(stack.dataDir, 'atendimento-service', { type: 'loja.criada', idLoja: loja.idLoja });
    expect((await api('GET', '/agentes', { token: loja.token })).body.agentes).toEqual([assistente]);
  });

  it('answers through the built-in agent right after the store is created', async () => {
    const loja = await createStore();
    const resposta = await conversar(loja, `rastreio-${loja.idLoja}`, { mensagem: 'Como acompanho meu pedido?' });
    expect(resposta.status).toBe(200);
    expect(resposta.body).toMatchObject({ intencao: 'faq' });
  });

  it('creates a custom FAQ agent that answers paraphrases, ignoring accents and case, and offers a human otherwise', async () => {
    const loja = await createStore();
    const criado = await api('POST', '/agentes', {
      token: loja.token,
      body: {
        nome: 'Dúvidas da loja',
        descricao: 'Entrega, trocas e pagamento',
        faq: [
          { pergunta: 'Qual o prazo de entrega para o Nordeste?', resposta: 'Entregamos no Nordeste em até 7 dias úteis.' },
          { pergunta: 'Como faço para trocar um produto?', resposta: 'Peça a troca em até 30 dias em Meus Pedidos.' },
          { pergunta: 'Quais são as formas de pagamento?', resposta: 'Cartão em até 12x, boleto e Pix.' },
        ],
      },
    });
    expect(criado.status).toBe(201);
    expect(criado.body).toEqual({ idAgente: expect.stringMatching(UUID_V7), nome: 'Dúvidas da loja', descricao: 'Entrega, trocas e pagamento', habilidades: ['faq'], ativo: true });
    const { idAgente } = criado.body;
    const lista = await api('GET', '/agentes', { token: loja.token });
    expect(lista.body.agentes).toContainEqual(criado.body);

    const parafrase = await conversar(loja, idAgente, { mensagem: 'Em QUANTO tempo chega no NORDESTE?' });
    expect(parafrase.status).toBe(200);
    expect(parafrase.body).toEqual({
      idConversa: expect.stringMatching(UUID_V7),
      resposta: 'Entregamos no Nordeste em até 7 dias úteis.',
      intencao: 'faq',
      referencias: [{ tipo: 'faq', pergunta: 'Qual o prazo de entrega para o Nordeste?', confianca: expect.any(Number) }],
    });
    const semAcento = await conversar(loja, idAgente, { mensagem: 'como faco pra trocar um produto', idConversa: parafrase.body.idConversa });
    expect(semAcento.body).toMatchObject({ idConversa: parafrase.body.idConversa, intencao: 'faq', resposta: 'Peça a troca em até 30 dias em Meus Pedidos.' });

    const desconhecida = await conversar(loja, idAgente, { mensagem: 'Vocês vendem bicicletas elétricas?' });
    expect(desconhecida.body).toMatchObject({ intencao: 'desconhecida', referencias: [] });
    expect(desconhecida.body.resposta).toMatch(/atendente humano/);
  });

  it('refuses bad agents and unknown or another store’s agents', async () => {
    const loja = await createStore();
    const outra = await createStore();
    const ruim = await api('POST', '/agentes', { token: loja.token, body: { nome: '', descricao: 'x', faq: [{ pergunta: 'p' }], extra: 1 } });
    expectInvalid(ruim, 'nome', 'faq.0.resposta', 'extra');
    expectProblem(await api('POST', '/agentes', { token: loja.token, body: { nome: 'a', descricao: 'b', faq: [] } }), 400);
    expectProblem(await api('POST', '/agentes', { token: loja.token, body: { nome: 'a', descricao: 'b', faq: Array.from({ length: 1001 }, () => ({ pergunta: 'p', resposta: 'r' })) } }), 400);
    // 41 entries of 500 + 2,000 characters: 102,500, over the 100,000 an FAQ may hold.
    const longo = await api('POST', '/agentes', { token: loja.token, body: { nome: 'a', descricao: 'b', faq: Array.from({ length: 41 }, () => ({ pergunta: 'p'.repeat(500), resposta: 'r'.repeat(2000) })) } });
    expectProblem(longo, 400);
    expect(longo.body.erros).toEqual([{ campo: 'faq', mensagem: 'faq deve ter no máximo 100000 caracteres somando perguntas e respostas' }]);

    const assistente = await assistenteDe(loja);
    expectProblem(await conversar(loja, 'nao-existe', { mensagem: 'oi' }), 404);
    expectProblem(await conversar(outra, assistente.idAgente, { mensagem: 'oi' }), 404);
    expectProblem(await conversar(loja, assistente.idAgente, { mensagem: '' }), 400);
    expectProblem(await conversar(loja, assistente.idAgente, { mensagem: 'x'.repeat(4001) }), 400);
  });
});

describe('the rastreio skill, from tracking.events.v1', () => {
  let loja: TestStore;
  let outra: TestStore;
  let idAgente: string;
  let pedido: Pedido;
  let pedidoDaOutra: Pedido;
  const numero = `PED-${randomBytes(3).toString('hex')}`;
  const canal = `MLB${Date.now()}`;
  const codigo = `BR${randomBytes(4).toString('hex').toUpperCase()}BR`;
  const numeroDaOutra = `OUT-${randomBytes(3).toString('hex')}`;

  beforeAll(async () => {
    loja = await createStore('Loja Rastreio');
    outra = await createStore('Outra Loja');
    idAgente = (await assistenteDe(loja)).idAgente;
    pedido = pedidoDe(loja.idLoja, numero, { pedidoCanal: canal });
    const { idLoja: _a, ...ref } = pedido;
    await publicarRastreio(loja.idLoja, 'pedido.salvo', { ...ref, situacao: 'enviado', atualizadoEm: '2026-03-01T09:00:00-03:00' });
    await publicarRastreio(loja.idLoja, 'rastreio.evento.registrado', registrado(pedido, codigo, '2026-03-01T10:00:00-03:00', 'Objeto postado'));
    await publicarRastreio(loja.idLoja, 'rastreio.evento.registrado', registrado(pedido, codigo, '2026-03-02T11:30:00-03:00', 'Objeto em trânsito para Recife'));
    // Internal, and the latest of all: must never reach a customer.
    await publicarRastreio(loja.idLoja, 'rastreio.evento.registrado', registrado(pedido, codigo, '2026-03-03T08:00:00-03:00', 'Avaria interna: reembalar no CD', false));

    pedidoDaOutra = pedidoDe(outra.idLoja, numeroDaOutra);
    await publicarRastreio(outra.idLoja, 'rastreio.evento.registrado', registrado(pedidoDaOutra, 'OUTRA123BR', '2026-03-02T10:00:00-03:00', 'Saiu para entrega da outra loja'));
  });

  const perguntar = (mensagem: string, body: object = {}) => conversar(loja, idAgente, { mensagem, ...body });

  it('answers an order number with the latest customer-visible event, never the internal one', async () => {
    const response = await perguntar(`Onde está meu pedido ${numero}?`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      idConversa: expect.any(String),
      resposta: `Pedido ${numero}: Objeto em trânsito para Recife (02/03/2026 às 11:30). Acompanhe em ${pedido.linkRastreio}`,
      intencao: 'rastreio',
      referencias: [{ tipo: 'pedido', idPedido: pedido.idPedido, numeroPedido: numero, tipoPedido: 'envio', linkRastreio: pedido.linkRastreio }],
    });
    expect(response.text).not.toMatch(/Avaria/);
  });

  it('finds the order by a tracking code in any case, and by the channel’s order number', async () => {
    const porCodigo = await perguntar(`rastreio ${codigo.toLowerCase()}`);
    expect(porCodigo.body.resposta).toContain('Objeto em trânsito para Recife');
    expect(porCodigo.body.referencias).toEqual([expect.objectContaining({ idPedido: pedido.idPedido })]);
    const porCanal = await perguntar(`Comprei no marketplace, pedido ${canal}. Cadê?`);
    expect(porCanal.body).toMatchObject({ intencao: 'rastreio', referencias: [expect.objectContaining({ idPedido: pedido.idPedido })] });
    expect(porCanal.text).not.toMatch(/Avaria/);
  });

  it('never finds another store’s order', async () => {
    // The other store's own agent sees it: the events did arrive.
    const assistenteDaOutra = (await assistenteDe(outra)).idAgente;
    const daOutra = await conversar(outra, assistenteDaOutra, { mensagem: `pedido ${numeroDaOutra}` });
    expect(daOutra.body).toMatchObject({ intencao: 'rastreio', referencias: [expect.objectContaining({ idPedido: pedidoDaOutra.idPedido })] });
    for (const mensagem of [`Onde está o pedido ${numeroDaOutra}?`, 'meu código de rastreio é OUTRA123BR']) {
      const response = await perguntar(mensagem);
      expect(response.body).toMatchObject({ intencao: 'rastreio', referencias: [] });
      expect(response.body.resposta).toMatch(/Não encontrei nenhum pedido/);
      expect(response.text).not.toMatch(/outra loja|Saiu para entrega/);
    }
  });

  it('follows corrections: a new text, and an event hidden after the fact', async () => {
    const corrigido = pedidoDe(loja.idLoja, `COR-${randomBytes(3).toString('hex')}`);
    const primeiro = registrado(corrigido, 'COR1BR', '2026-04-01T10:00:00-03:00', 'Postado');
    const segundo = registrado(corrigido, 'COR1BR', '2026-04-02T10:00:00-03:00', 'Em transito');
    await publicarRastreio(loja.idLoja, 'rastreio.evento.registrado', primeiro);
    await publicarRastreio(loja.idLoja, 'rastreio.evento.registrado', segundo);
    const corrigir = (evento: typeof segundo, mudancas: object) => {
      const { origem: _o, encerraVolume: _e, ...dados } = evento;
      return publicarRastreio(loja.idLoja, 'rastreio.evento.corrigido', { ...dados, ...mudancas });
    };
    await corrigir(segundo, { descricao: 'Em trânsito para Salvador' });
    expect((await perguntar(`pedido ${corrigido.numeroPedido}`)).body.resposta).toContain('Em trânsito para Salvador');
    await corrigir(segundo, { descricao: 'Em trânsito para Salvador', visivelClienteFinal: false });
    const response = await perguntar(`pedido ${corrigido.numeroPedido}`);
    expect(response.body.resposta).toBe(`Pedido ${corrigido.numeroPedido}: Postado (01/04/2026 às 10:00). Acompanhe em ${corrigido.linkRastreio}`);
  });

  it('answers its FAQ, and offers a human for an unknown question', async () => {
    const faq = await perguntar('Como acompanho minha encomenda?');
    expect(faq.body).toMatchObject({ intencao: 'faq', referencias: [expect.objectContaining({ tipo: 'faq' })] });
    const desconhecida = await perguntar('Qual a cor do céu em Marte?');
    expect(desconhecida.body).toMatchObject({ intencao: 'desconhecida', referencias: [] });
    expect(desconhecida.body.resposta).toMatch(/atendente humano/);
  });

  it('appends the exchange to a conversation: entrada from the customer, saida from the agent, two atendimento.mensagem', async () => {
    const { body: { idAtendimento } } = await api('POST', '/atendimentos', { token: loja.token, body: { canal: 'chat', tipo: 'rastreio', dadosCliente: { nome: 'Ana' } } });
    const pergunta = `Onde está meu pedido ${numero}?`;
    const response = await perguntar(pergunta, { idAtendimento });
    expect(response.status).toBe(200);
    const lido = await api('GET', `/atendimentos/${idAtendimento}`, { token: loja.token });
    expect(lido.body.mensagens.map(({ direcao, remetente, mensagem }: Record<string, string>) => ({ direcao, remetente, mensagem }))).toEqual([
      { direcao: 'entrada', remetente: 'cliente', mensagem: pergunta },
      { direcao: 'saida', remetente: `agente:${idAgente}`, mensagem: response.body.resposta },
    ]);
    const eventos = await eventually('both messages on Kafka', () => {
      const found = atendimentoEvents.received.filter((m) => m.envelope.data.idAtendimento === idAtendimento && m.envelope.type === 'atendimento.mensagem');
      return found.length === 2 ? found : undefined;
    });
    expect(eventos.map((e) => [e.envelope.data.direcao, e.envelope.data.remetente])).toEqual([['entrada', 'cliente'], ['saida', `agente:${idAgente}`]]);

    // A closed conversation or another store's takes nothing, and gets no answer.
    await api('POST', `/atendimentos/${idAtendimento}/encerrar`, { token: loja.token, body: { resumo: 'ok' } });
    expectProblem(await perguntar('e agora?', { idAtendimento }), 409);
    expectProblem(await conversar(outra, (await assistenteDe(outra)).idAgente, { mensagem: 'oi', idAtendimento }), 404);
    expect((await api('GET', `/atendimentos/${idAtendimento}`, { token: loja.token })).body.totalMensagens).toBe(2);
  });
});
