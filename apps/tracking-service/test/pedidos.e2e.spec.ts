import { apiClient, createStore, expectInvalid, expectProblem, testStack, uniqueId, type TestStore } from '@trilha/testing';

const stack = testStack();
const api = apiClient(stack.baseUrl, stack.caFile);

const pedido = (overrides: Record<string, unknown> = {}) => ({
  numeroPedido: `P-${uniqueId()}`,
  pedidoCanal: `MKT-${uniqueId()}`,
  canalVenda: 'marketplace',
  situacao: 'aprovado',
  cliente: { nome: 'Ana Souza', email: 'ana@example.com', telefone: '+55 11 91234-5678', documento: '12345678909' },
  enderecoEntrega: { logradouro: 'Av. Paulista', numero: '1000', complemento: 'ap 1', bairro: 'Bela Vista', cidade: 'São Paulo', uf: 'SP', cep: '01310100' },
  itens: [{ sku: 'CAM-AZ-M', descricao: 'Camiseta azul M', quantidade: 2, valorUnitario: 49.9 }],
  valorTotal: 99.8,
  dataPedido: '2026-11-20T09:00:00-03:00',
  ...overrides,
});

const salvar = (loja: TestStore, body: Record<string, unknown>) => api('PUT', '/pedido', { token: loja.token, body });

describe('PUT /pedido and GET /pedido (docs/API.md section 3)', () => {
  let loja: TestStore;
  let outra: TestStore;
  beforeAll(async () => {
    [loja, outra] = await Promise.all([createStore(), createStore('Outra Loja')]);
  });

  it('creates an order (201), then updates the same order on numeroPedido + tipoPedido (200)', async () => {
    const body = pedido();
    const created = await salvar(loja, body);
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      ...body,
      idPedido: expect.any(String),
      tipoPedido: 'envio',
      linkRastreio: expect.stringMatching(new RegExp(`^https://localhost:${stack.ports.gateway}/rastreio/[A-Za-z0-9_-]{22,}$`)),
      criadoEm: expect.stringMatching(/Z$/),
      atualizadoEm: created.body.criadoEm,
    });
    // A UUIDv7 without hyphens (@trilha/ids): 32 hex characters, the most idPedido may have.
    expect(created.body.idPedido).toMatch(/^[0-9a-f]{12}7[0-9a-f]{3}[89ab][0-9a-f]{15}$/);

    const updated = await salvar(loja, { ...body, situacao: 'enviado', itens: [] });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ idPedido: created.body.idPedido, situacao: 'enviado', itens: [], criadoEm: created.body.criadoEm, linkRastreio: created.body.linkRastreio });
    expect(Date.parse(updated.body.atualizadoEm)).toBeGreaterThan(Date.parse(created.body.criadoEm));

    const unchanged = await salvar(loja, { ...body, situacao: 'enviado', itens: [] });
    expect(unchanged.status).toBe(200);
    expect(unchanged.body).toEqual(updated.body);

    const read = await api('GET', `/pedido?chave=idPedido&valor=${created.body.idPedido}`, { token: loja.token });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(updated.body);
  });

  it('finds an order by idPedido, numeroPedido or pedidoCanal, only in the token’s store', async () => {
    const created = await salvar(loja, pedido());
    for (const query of [`chave=idPedido&valor=${created.body.idPedido}`, `chave=numeroPedido&valor=${created.body.numeroPedido}`, `chave=pedidoCanal&valor=${created.body.pedidoCanal}`]) {
      const response = await api('GET', `/pedido?${query}`, { token: loja.token });
      expect(response.status).toBe(200);
      expect(response.body.idPedido).toBe(created.body.idPedido);
      expectProblem(await api('GET', `/pedido?${query}`, { token: outra.token }), 404);
    }
    expectProblem(await api('GET', '/pedido?chave=numeroPedido&valor=nao-existe', { token: loja.token }), 404);
    // The same number in another store is another order.
    const theirs = await salvar(outra, pedido({ numeroPedido: created.body.numeroPedido }));
    expect(theirs.status).toBe(201);
    expect(theirs.body.idPedido).not.toBe(created.body.idPedido);
  });

  it('keeps an envio and a reversa with one number apart; without tipoPedido the envio is found', async () => {
    const numeroPedido = `P-${uniqueId()}`;
    const envio = await salvar(loja, pedido({ numeroPedido }));
    const reversa = await salvar(loja, pedido({ numeroPedido, tipoPedido: 'reversa' }));
    expect([envio.status, reversa.status]).toEqual([201, 201]);
    expect(reversa.body.idPedido).not.toBe(envio.body.idPedido);
    expect((await api('GET', `/pedido?chave=numeroPedido&valor=${numeroPedido}`, { token: loja.token })).body.idPedido).toBe(envio.body.idPedido);
    expect((await api('GET', `/pedido?chave=numeroPedido&valor=${numeroPedido}&tipoPedido=reversa`, { token: loja.token })).body.idPedido).toBe(reversa.body.idPedido);
    expect((await api('GET', `/pedido?chave=numeroPedido&valor=${numeroPedido}&tipoPedido=envio`, { token: loja.token })).body.idPedido).toBe(envio.body.idPedido);
  });

  it('completes an order its first tracking event created, keeping its id and link', async () => {
    const numeroPedido = `P-${uniqueId()}`;
    const evento = await api('POST', '/pedidoRastreio/evento', {
      token: loja.token, body: { numeroPedido, codigoRastreio: 'BR1', dataHora: '2026-11-21T10:00:00Z', descricao: 'Postado' },
    });
    const before = await api('GET', `/pedido?chave=numeroPedido&valor=${numeroPedido}`, { token: loja.token });
    expect(before.body).toMatchObject({ idPedido: evento.body.idPedido, situacao: 'novo', cliente: null, itens: [], valorTotal: 0, pedidoCanal: null });
    const completed = await salvar(loja, pedido({ numeroPedido }));
    expect(completed.status).toBe(200);
    expect(completed.body).toMatchObject({ idPedido: evento.body.idPedido, linkRastreio: evento.body.linkRastreio, cliente: { nome: 'Ana Souza' } });
  });

  it('never creates two orders when first writes of one number race', async () => {
    const body = pedido();
    const responses = await Promise.all(Array.from({ length: 8 }, (_, index) => salvar(loja, { ...body, valorTotal: index })));
    expect(responses.filter((response) => response.status === 201)).toHaveLength(1);
    expect(responses.filter((response) => response.status === 200)).toHaveLength(7);
    expect(new Set(responses.map((response) => response.body.idPedido)).size).toBe(1);
  });

  it('answers 400 to GET /pedido without a known chave or a valor', async () => {
    expectInvalid(await api('GET', '/pedido?chave=codigoRastreio&valor=1', { token: loja.token }), 'chave');
    expectInvalid(await api('GET', '/pedido?valor=1', { token: loja.token }), 'chave');
    expectInvalid(await api('GET', '/pedido?chave=numeroPedido', { token: loja.token }), 'valor');
    expectInvalid(await api('GET', `/pedido?chave=numeroPedido&valor=${'1'.repeat(101)}`, { token: loja.token }), 'valor');
    expectInvalid(await api('GET', '/pedido?chave=numeroPedido&valor=1&tipoPedido=x', { token: loja.token }), 'tipoPedido');
  });

  it('refuses every size over the contract, wrong types and unknown fields with a 400 naming the field, and writes nothing', async () => {
    const numeroPedido = `P-${uniqueId()}`;
    const base = pedido({ numeroPedido });
    const cases: [Record<string, unknown>, string][] = [
      [{ numeroPedido: 'n'.repeat(101) }, 'numeroPedido'],
      [{ numeroPedido: undefined }, 'numeroPedido'],
      [{ pedidoCanal: 'c'.repeat(101) }, 'pedidoCanal'],
      [{ canalVenda: 'c'.repeat(51) }, 'canalVenda'],
      [{ tipoPedido: 'troca' }, 'tipoPedido'],
      [{ situacao: 'perdido' }, 'situacao'],
      [{ cliente: { nome: 'n'.repeat(151) } }, 'cliente.nome'],
      [{ cliente: {} }, 'cliente.nome'],
      [{ cliente: { nome: 'Ana', email: 'e'.repeat(140) + '@example.com' } }, 'cliente.email'],
      [{ cliente: { nome: 'Ana', email: 'não é e-mail' } }, 'cliente.email'],
      [{ cliente: { nome: 'Ana', telefone: '1'.repeat(31) } }, 'cliente.telefone'],
      [{ cliente: { nome: 'Ana', documento: '1'.repeat(21) } }, 'cliente.documento'],
      [{ cliente: { nome: 'Ana', cpf: '1' } }, 'cliente.cpf'],
      [{ cliente: 'Ana' }, 'cliente'],
      [{ enderecoEntrega: { ...base.enderecoEntrega, uf: 'SPX' } }, 'enderecoEntrega.uf'],
      [{ enderecoEntrega: { ...base.enderecoEntrega, cep: '0131010' } }, 'enderecoEntrega.cep'],
      [{ enderecoEntrega: { ...base.enderecoEntrega, cep: '01310-100' } }, 'enderecoEntrega.cep'],
      [{ itens: [{ ...base.itens[0], sku: 's'.repeat(61) }] }, 'itens.0.sku'],
      [{ itens: [{ ...base.itens[0], descricao: 'd'.repeat(256) }] }, 'itens.0.descricao'],
      [{ itens: [{ ...base.itens[0], quantidade: 0 }] }, 'itens.0.quantidade'],
      [{ itens: [{ ...base.itens[0], quantidade: 1.5 }] }, 'itens.0.quantidade'],
      [{ itens: [{ ...base.itens[0], valorUnitario: -1 }] }, 'itens.0.valorUnitario'],
      [{ itens: [{ ...base.itens[0], valorUnitario: 1.234 }] }, 'itens.0.valorUnitario'],
      [{ itens: 'camiseta' }, 'itens'],
      [{ valorTotal: 10.001 }, 'valorTotal'],
      [{ valorTotal: '10' }, 'valorTotal'],
      [{ dataPedido: '2026-11-20T09:00:00' }, 'dataPedido'],
      [{ dataPedido: '20/11/2026' }, 'dataPedido'],
      [{ idPedido: 'meu-id' }, 'idPedido'],
      [{ linkRastreio: 'https://x' }, 'linkRastreio'],
    ];
    for (const [change, campo] of cases) expectInvalid(await salvar(loja, { ...base, ...change }), campo);
    expectProblem(await api('GET', `/pedido?chave=numeroPedido&valor=${numeroPedido}`, { token: loja.token }), 404);
    // At the limits, everything is accepted.
    const limits = pedido({
      numeroPedido: 'N'.repeat(100), pedidoCanal: 'C'.repeat(100), canalVenda: 'V'.repeat(50),
      cliente: { nome: 'n'.repeat(150), email: `${'e'.repeat(64)}@${'d'.repeat(60)}.${'d'.repeat(12)}.example.com`, telefone: '1'.repeat(30), documento: '2'.repeat(20) },
      itens: [{ sku: 's'.repeat(60), descricao: 'd'.repeat(255), quantidade: 1, valorUnitario: 0 }], valorTotal: 0.01,
    });
    expect((await salvar(loja, limits)).status).toBe(201);
  });
});

describe('GET /pedidos (docs/API.md section 3)', () => {
  let loja: TestStore;
  const criados: { idPedido: string; dataPedido: string }[] = [];

  beforeAll(async () => {
    loja = await createStore();
    const datas = ['2026-11-01T10:00:00Z', '2026-11-03T10:00:00Z', '2026-11-02T10:00:00Z', '2026-11-03T10:00:00Z', '2026-11-05T07:00:00-03:00'];
    for (const [index, dataPedido] of datas.entries()) {
      const response = await salvar(loja, pedido({ dataPedido, situacao: index % 2 ? 'enviado' : 'aprovado', tipoPedido: index === 4 ? 'reversa' : 'envio' }));
      expect(response.status).toBe(201);
      criados.push(response.body);
    }
  });

  const listar = (query = '') => api('GET', `/pedidos${query}`, { token: loja.token });

  it('lists the store’s orders, newest dataPedido first, ties by idPedido, 20 per page by default', async () => {
    const response = await listar();
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ pagina: 1, porPagina: 20, total: 5, totalPaginas: 1 });
    const expected = [...criados].sort((a, b) => Date.parse(b.dataPedido) - Date.parse(a.dataPedido) || (a.idPedido < b.idPedido ? -1 : 1));
    expect(response.body.pedidos.map((item: { idPedido: string }) => item.idPedido)).toEqual(expected.map((item) => item.idPedido));
    expect(response.body.pedidos[0]).toEqual(criados[4]);
  });

  it('pages through them', async () => {
    const all = (await listar()).body.pedidos.map((item: { idPedido: string }) => item.idPedido);
    const pages = await Promise.all([1, 2, 3, 4].map((pagina) => listar(`?pagina=${pagina}&porPagina=2`)));
    expect(pages.map((page) => page.body.pedidos.length)).toEqual([2, 2, 1, 0]);
    expect(pages[0].body).toMatchObject({ pagina: 1, porPagina: 2, total: 5, totalPaginas: 3 });
    expect(pages[3].body).toMatchObject({ pagina: 4, total: 5, totalPaginas: 3, pedidos: [] });
    expect(pages.flatMap((page) => page.body.pedidos.map((item: { idPedido: string }) => item.idPedido))).toEqual(all);
  });

  it('filters by tipoPedido, situacao and a dataPedido period (inclusive; one ending before it starts holds nothing)', async () => {
    expect((await listar('?tipoPedido=reversa')).body.pedidos.map((item: { idPedido: string }) => item.idPedido)).toEqual([criados[4].idPedido]);
    expect((await listar('?situacao=enviado')).body.total).toBe(2);
    expect((await listar('?situacao=enviado&tipoPedido=envio')).body.total).toBe(2);
    const period = await listar(`?dataInicio=${encodeURIComponent('2026-11-02T10:00:00Z')}&dataFim=${encodeURIComponent('2026-11-03T07:00:00-03:00')}`);
    expect(period.body.total).toBe(3);
    expect((await listar(`?dataInicio=${encodeURIComponent('2026-11-05T10:00:00Z')}`)).body.pedidos).toEqual([criados[4]]);
    expect((await listar('?situacao=cancelado')).body).toMatchObject({ total: 0, totalPaginas: 0, pedidos: [] });
    const inverted = await listar(`?dataInicio=${encodeURIComponent('2026-11-05T00:00:00Z')}&dataFim=${encodeURIComponent('2026-11-01T00:00:00Z')}`);
    expect(inverted.status).toBe(200);
    expect(inverted.body).toMatchObject({ total: 0, totalPaginas: 0, pedidos: [] });
  });

  it('answers 400 to pages and filters outside their ranges', async () => {
    expectInvalid(await listar('?pagina=0'), 'pagina');
    expectInvalid(await listar('?pagina=um'), 'pagina');
    expectInvalid(await listar('?porPagina=0'), 'porPagina');
    expectInvalid(await listar('?porPagina=101'), 'porPagina');
    expectInvalid(await listar('?porPagina=2.5'), 'porPagina');
    expectInvalid(await listar('?situacao=perdido'), 'situacao');
    expectInvalid(await listar('?tipoPedido=troca'), 'tipoPedido');
    expectInvalid(await listar('?dataInicio=2026-11-01'), 'dataInicio');
    expectInvalid(await listar('?ordem=asc'), 'ordem');
    expect((await listar('?porPagina=100')).status).toBe(200);
  });

  it('shows no other store’s orders', async () => {
    const outra = await createStore('Loja Vazia');
    expect((await api('GET', '/pedidos', { token: outra.token })).body).toEqual({ pagina: 1, porPagina: 20, total: 0, totalPaginas: 0, pedidos: [] });
  });
});
