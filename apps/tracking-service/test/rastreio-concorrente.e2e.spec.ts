import { apiClient, createStore, testStack, uniqueId, type ApiResponse, type TestStore } from '@trilha/testing';

const stack = testStack();
const api = apiClient(stack.baseUrl, stack.caFile);

const registrar = async (loja: TestStore, body: Record<string, unknown>): Promise<string> => {
  const response = await api('POST', '/pedidoRastreio/evento', { token: loja.token, body: { dataHora: '2026-11-21T10:00:00Z', descricao: 'Objeto postado', ...body } });
  expect(response.status).toBe(201);
  return response.body.idPedido;
};

const rastreio = (loja: TestStore, query: string) => api('GET', `/pedidoRastreio?${query}`, { token: loja.token });
const resposta = ({ status, body }: ApiResponse) => ({ status, body });

describe('GET /pedidoRastreio: reads that arrive together (the tracking service sends them in one statement)', () => {
  it('answers each read as it answers it alone, and never with another store’s order', async () => {
    const [loja, outra] = await Promise.all([createStore(), createStore('Outra Loja')]);
    // One number in both stores; in `loja` an envio and a reversa share it.
    const numero = `P-${uniqueId()}`;
    const canal = `MKT-${uniqueId()}`;
    const codigo = `BR-${uniqueId()}`;
    const envio = await registrar(loja, { numeroPedido: numero, codigoRastreio: `${codigo}-IDA`, pedidoCanal: canal });
    const reversa = await registrar(loja, { numeroPedido: numero, tipoPedido: 'reversa', codigoRastreio: `${codigo}-VOLTA` });
    const daOutra = await registrar(outra, { numeroPedido: numero, codigoRastreio: `${codigo}-OUTRA`, pedidoCanal: canal });

    // Each read, and the order it finds in each store (null: none, a 404).
    const consultas: [string, string | null, string | null][] = [
      [`chave=numeroPedido&valor=${numero}`, envio, daOutra],
      [`chave=numeroPedido&valor=${numero}&tipoPedido=reversa`, reversa, null],
      [`chave=numeroPedido&valor=${numero}&tipoPedido=envio`, envio, daOutra],
      [`chave=idPedido&valor=${envio}`, envio, null],
      [`chave=idPedido&valor=${reversa}`, reversa, null],
      [`chave=idPedido&valor=${reversa}&tipoPedido=envio`, null, null],
      [`chave=idPedido&valor=${daOutra}`, null, daOutra],
      [`chave=pedidoCanal&valor=${canal}`, envio, daOutra],
      [`chave=pedidoCanal&valor=${canal}&tipoPedido=reversa`, null, null],
      [`chave=codigoRastreio&valor=${codigo}-IDA`, envio, null],
      [`chave=codigoRastreio&valor=${codigo}-VOLTA`, reversa, null],
      [`chave=codigoRastreio&valor=${codigo}-OUTRA`, null, daOutra],
      [`chave=numeroPedido&valor=${codigo}`, null, null],
      [`chave=codigoRastreio&valor=${numero}`, null, null],
      [`chave=pedidoCanal&valor=${numero}`, null, null],
    ];
    const leituras = consultas.flatMap(([consulta, naLoja, naOutra]) => [
      { quem: loja, consulta, pedido: naLoja },
      { quem: outra, consulta, pedido: naOutra },
    ]);

    const sozinhas = new Map<(typeof leituras)[number], ReturnType<typeof resposta>>();
    for (const leitura of leituras) sozinhas.set(leitura, resposta(await rastreio(leitura.quem, leitura.consulta)));
    for (const [leitura, { status, body }] of sozinhas) {
      if (leitura.pedido) expect({ consulta: leitura.consulta, status, idPedido: body.idPedido }).toEqual({ consulta: leitura.consulta, status: 200, idPedido: leitura.pedido });
      else expect({ consulta: leitura.consulta, status, detail: body.detail }).toEqual({ consulta: leitura.consulta, status: 404, detail: 'Nenhum rastreio manual para esse filtro nesta loja.' });
    }
    expect(sozinhas.get(leituras[2])?.body.volumes[0]).toMatchObject({ tipoPedido: 'reversa', codigoRastreio: `${codigo}-VOLTA` });

    // Each read twice, 60 at once (30 per store, within its 120 a minute with the 15 above).
    const juntas = [...leituras, ...leituras];
    const respostas = await Promise.all(juntas.map(({ quem, consulta }) => rastreio(quem, consulta)));
    expect(respostas.map(resposta)).toEqual(juntas.map((leitura) => sozinhas.get(leitura)));
  });
});
