import { parseEventMessage, TOPICS, TRACKING_CONTRACT, type TrackingMessage } from '@trilha/contracts';
import { apiClient, createStore, eventually, testStack, topicReader, uniqueId } from '@trilha/testing';

const stack = testStack();
const api = apiClient(stack.baseUrl, stack.caFile);

describe('tracking.events.v1 (published exactly as libs/contracts defines it)', () => {
  let kafka: Awaited<ReturnType<typeof topicReader>>;

  beforeAll(async () => {
    kafka = await topicReader(stack, TOPICS.tracking);
  });

  afterAll(() => kafka.stop());

  /** The store's messages, once `count` of them arrived, validated against the contract. */
  const messagesOf = (idLoja: number, count: number) =>
    eventually(`${count} tracking messages of store ${idLoja}`, () => {
      const mine = kafka.received.filter((message) => message.key === String(idLoja));
      return mine.length >= count ? mine.map((message) => parseEventMessage<TrackingMessage>(message.envelope, TRACKING_CONTRACT)) : undefined;
    });

  it('publishes pedido.salvo for an order created by its first tracking event, then the event, then its correction', async () => {
    const loja = await createStore();
    const numeroPedido = `P-${uniqueId()}`;
    const registered = await api('POST', '/pedidoRastreio/evento', {
      token: loja.token,
      body: { numeroPedido, codigoRastreio: 'BR1', rotulo: 'Caixa 1', dataHora: '2026-11-21T10:00:00-03:00', descricao: 'Postado', visivelClienteFinal: false },
    });
    expect(registered.status).toBe(201);
    const { idPedido, linkRastreio, hash } = registered.body;
    expect((await api('PUT', `/pedidoRastreio/evento/${hash}`, { token: loja.token, body: { descricao: 'Postado na agência' } })).status).toBe(200);

    const [salvo, registrado, corrigido] = await messagesOf(loja.idLoja, 3);
    const ref = { idPedido, numeroPedido, tipoPedido: 'envio', pedidoCanal: null, linkRastreio };
    expect(salvo).toMatchObject({ type: 'pedido.salvo', idLoja: loja.idLoja, schemaVersion: 1 });
    expect(salvo.data).toEqual({ ...ref, situacao: 'novo', atualizadoEm: expect.stringMatching(/Z$/), canalVenda: null });
    expect(registrado.type).toBe('rastreio.evento.registrado');
    expect(registrado.data).toEqual({
      ...ref, chaveEnvio: 'BR1', origemChave: 'codigoRastreio', codigoRastreio: 'BR1', chaveNFe: null, identificador: null, codigoEnvio: null, rotulo: 'Caixa 1',
      hash, dataHora: '2026-11-21T10:00:00-03:00', descricao: 'Postado', sigla: '', visivelClienteFinal: false, origem: 'api', encerraVolume: false,
    });
    expect(corrigido.type).toBe('rastreio.evento.corrigido');
    expect(corrigido.data).toEqual({
      ...ref, chaveEnvio: 'BR1', origemChave: 'codigoRastreio', codigoRastreio: 'BR1', chaveNFe: null, identificador: null, codigoEnvio: null, rotulo: 'Caixa 1',
      hash, dataHora: '2026-11-21T10:00:00-03:00', descricao: 'Postado na agência', sigla: '', visivelClienteFinal: false,
    });
  });

  it('publishes pedido.salvo after every create and update of an order, without the customer’s data', async () => {
    const loja = await createStore();
    const body = {
      numeroPedido: `P-${uniqueId()}`, pedidoCanal: 'MKT-1', cliente: { nome: 'Ana', email: 'ana@example.com' }, itens: [], valorTotal: 10,
      dataPedido: '2026-11-21T10:00:00Z', situacao: 'aprovado', canalVenda: 'mercadolivre',
    };
    const created = await api('PUT', '/pedido', { token: loja.token, body });
    expect(created.status).toBe(201);
    expect((await api('PUT', '/pedido', { token: loja.token, body: { ...body, situacao: 'enviado' } })).status).toBe(200);
    const messages = await messagesOf(loja.idLoja, 2);
    expect(messages.map((message) => [message.type, (message.data as { situacao: string }).situacao])).toEqual([
      ['pedido.salvo', 'aprovado'],
      ['pedido.salvo', 'enviado'],
    ]);
    expect(Object.keys(messages[0].data).sort()).toEqual(['atualizadoEm', 'canalVenda', 'idPedido', 'linkRastreio', 'numeroPedido', 'pedidoCanal', 'situacao', 'tipoPedido']);
    expect(messages.map((message) => (message.data as { canalVenda?: string }).canalVenda)).toEqual(['mercadolivre', 'mercadolivre']);
  });
});
