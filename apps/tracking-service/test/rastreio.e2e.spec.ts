import { apiClient, createStore, expectInvalid, expectProblem, testStack, uniqueId, type TestStore } from '@trilha/testing';

const stack = testStack();
const api = apiClient(stack.baseUrl, stack.caFile);

const registrar = (loja: TestStore, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  api('POST', '/pedidoRastreio/evento', { token: loja.token, body: { dataHora: '2026-11-21T10:00:00-03:00', descricao: 'Objeto postado', ...body }, headers });

const rastreio = (loja: TestStore, query: string) => api('GET', `/pedidoRastreio?${query}`, { token: loja.token });

describe('POST /pedidoRastreio/evento (docs/API.md section 4)', () => {
  let loja: TestStore;
  beforeAll(async () => {
    loja = await createStore();
  });

  it('creates the order and the volume on the first event, with a 40-hex hash and the public link', async () => {
    const numeroPedido = `P-${uniqueId()}`;
    const response = await registrar(loja, { numeroPedido, codigoRastreio: 'BR100', pedidoCanal: 'MKT-100', sigla: 'PO' });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      idPedido: expect.any(String),
      numeroPedido,
      chaveEnvio: 'BR100',
      origemChave: 'codigoRastreio',
      hash: expect.stringMatching(/^[0-9a-f]{40}$/),
      linkRastreio: expect.stringMatching(new RegExp(`^https://localhost:${stack.ports.gateway}/rastreio/[A-Za-z0-9_-]+$`)),
    });
    expect(response.body.idPedido.length).toBeLessThanOrEqual(32);
    const token = response.body.linkRastreio.split('/rastreio/')[1];
    expect(Buffer.from(token, 'base64url').length * 8).toBeGreaterThanOrEqual(96);

    const pedido = await api('GET', `/pedido?chave=idPedido&valor=${response.body.idPedido}`, { token: loja.token });
    expect(pedido.status).toBe(200);
    expect(pedido.body).toMatchObject({ idPedido: response.body.idPedido, numeroPedido, tipoPedido: 'envio', pedidoCanal: 'MKT-100', situacao: 'novo', linkRastreio: response.body.linkRastreio });

    // Another volume of the same order shares its id and link.
    const second = await registrar(loja, { numeroPedido, identificador: 'CAIXA-2' });
    expect(second.status).toBe(201);
    expect(second.body).toMatchObject({ idPedido: response.body.idPedido, linkRastreio: response.body.linkRastreio, chaveEnvio: 'CAIXA-2', origemChave: 'identificador' });
  });

  it('is idempotent: the same volume, dataHora, descricao and sigla again is 200 with the same hash and no new event', async () => {
    const numeroPedido = `P-${uniqueId()}`;
    const body = { numeroPedido, codigoRastreio: 'BR200', sigla: 'PO' };
    const first = await registrar(loja, body);
    expect(first.status).toBe(201);
    const again = await registrar(loja, body);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const otherSigla = await registrar(loja, { ...body, sigla: 'RO' });
    expect(otherSigla.status).toBe(201);
    expect(otherSigla.body.hash).not.toBe(first.body.hash);
    const record = await rastreio(loja, `chave=numeroPedido&valor=${numeroPedido}`);
    expect(record.body.volumes[0].totalEventos).toBe(2);
  });

  it('keys the volume by the first of codigoRastreio, chaveNFe and identificador, and keeps that key', async () => {
    const nfe = '35'.padEnd(44, '7');
    const cases: [Record<string, string>, string, string][] = [
      [{ codigoRastreio: 'BR300', chaveNFe: nfe, identificador: 'ID-300' }, 'BR300', 'codigoRastreio'],
      [{ chaveNFe: nfe, identificador: 'ID-301' }, nfe, 'chaveNFe'],
      [{ identificador: 'ID-302' }, 'ID-302', 'identificador'],
    ];
    for (const [keys, chaveEnvio, origemChave] of cases) {
      const response = await registrar(loja, { numeroPedido: `P-${uniqueId()}`, ...keys });
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({ chaveEnvio, origemChave });
    }
    // A volume first known by its invoice keeps that key when the carrier's code arrives.
    const numeroPedido = `P-${uniqueId()}`;
    await registrar(loja, { numeroPedido, chaveNFe: nfe, descricao: 'Faturado' });
    const later = await registrar(loja, { numeroPedido, codigoRastreio: 'BR303', chaveNFe: nfe, descricao: 'Coletado' });
    expect(later.body).toMatchObject({ chaveEnvio: nfe, origemChave: 'chaveNFe' });
    const record = await rastreio(loja, 'chave=codigoRastreio&valor=BR303');
    expect(record.body.totalVolumes).toBe(1);
    expect(record.body.volumes[0]).toMatchObject({ chaveEnvio: nfe, origemChave: 'chaveNFe', codigoRastreio: 'BR303', chaveNFe: nfe, totalEventos: 2 });

    expectInvalid(await registrar(loja, { numeroPedido }), 'codigoRastreio');
  });

  it('closes a volume with encerraVolume, then refuses its new events with 409 but still takes corrections', async () => {
    const numeroPedido = `P-${uniqueId()}`;
    const closing = await registrar(loja, { numeroPedido, codigoRastreio: 'BR400', descricao: 'Entregue', encerraVolume: true });
    expect(closing.status).toBe(201);
    expectProblem(await registrar(loja, { numeroPedido, codigoRastreio: 'BR400', descricao: 'Depois de entregue' }), 409);
    // The closing event posted again is still the same event.
    expect((await registrar(loja, { numeroPedido, codigoRastreio: 'BR400', descricao: 'Entregue', encerraVolume: true })).status).toBe(200);
    const corrected = await api('PUT', `/pedidoRastreio/evento/${closing.body.hash}`, { token: loja.token, body: { descricao: 'Entregue ao destinatário' } });
    expect(corrected.status).toBe(200);
    // Another volume of the order is not affected.
    expect((await registrar(loja, { numeroPedido, codigoRastreio: 'BR401' })).status).toBe(201);
    const record = await rastreio(loja, `chave=numeroPedido&valor=${numeroPedido}`);
    expect(record.body.volumes.map((volume: { status: string }) => volume.status)).toEqual(['encerrado', 'ativo']);
  });

  it('records where the event came from: api, or mcp through the operational tool server', async () => {
    const numeroPedido = `P-${uniqueId()}`;
    await registrar(loja, { numeroPedido, codigoRastreio: 'BR500', descricao: 'pela API' });
    await registrar(loja, { numeroPedido, codigoRastreio: 'BR500', descricao: 'pelo MCP' }, { 'x-trilha-origem': 'mcp' });
    const record = await rastreio(loja, `chave=numeroPedido&valor=${numeroPedido}`);
    expect(record.body.volumes[0].eventos.map((evento: { descricao: string; origem: string }) => [evento.descricao, evento.origem])).toEqual([
      ['pela API', 'api'],
      ['pelo MCP', 'mcp'],
    ]);
  });

  it('refuses every size over the contract, bad dates, bad invoice keys, wrong types and unknown fields with a 400 naming the field', async () => {
    const numeroPedido = `P-${uniqueId()}`;
    const base = { numeroPedido, codigoRastreio: 'BR600' };
    const over: [Record<string, unknown>, string][] = [
      [{ numeroPedido: 'n'.repeat(101) }, 'numeroPedido'],
      [{ pedidoCanal: 'c'.repeat(101) }, 'pedidoCanal'],
      [{ codigoRastreio: 'r'.repeat(101) }, 'codigoRastreio'],
      [{ identificador: 'i'.repeat(101) }, 'identificador'],
      [{ codigoEnvio: 'e'.repeat(51) }, 'codigoEnvio'],
      [{ rotulo: 'r'.repeat(256) }, 'rotulo'],
      [{ descricao: 'd'.repeat(501) }, 'descricao'],
      [{ sigla: 's'.repeat(11) }, 'sigla'],
      [{ chaveNFe: '1'.repeat(43) }, 'chaveNFe'],
      [{ chaveNFe: `${'1'.repeat(43)}X` }, 'chaveNFe'],
      [{ dataHora: '2026-11-21T10:00:00' }, 'dataHora'],
      [{ dataHora: '2026-11-21' }, 'dataHora'],
      [{ dataHora: '2026-02-30T10:00:00Z' }, 'dataHora'],
      [{ dataHora: `2026-11-21T10:00:00.${'1'.repeat(30)}Z` }, 'dataHora'],
      [{ dataHora: 'ontem' }, 'dataHora'],
      [{ tipoPedido: 'troca' }, 'tipoPedido'],
      [{ visivelClienteFinal: 'sim' }, 'visivelClienteFinal'],
      [{ encerraVolume: 1 }, 'encerraVolume'],
      [{ descricao: 42 }, 'descricao'],
      [{ descricao: '' }, 'descricao'],
      [{ extra: true }, 'extra'],
    ];
    for (const [change, campo] of over) expectInvalid(await registrar(loja, { ...base, ...change }), campo);
    const missing = await api('POST', '/pedidoRastreio/evento', { token: loja.token, body: { codigoRastreio: 'BR600' } });
    expectInvalid(missing, 'numeroPedido', 'dataHora', 'descricao');
    // Nothing of the refused requests was recorded.
    expectProblem(await rastreio(loja, `chave=numeroPedido&valor=${numeroPedido}`), 404);
    // At the limits, everything is accepted and read back whole.
    const limits = {
      numeroPedido: 'N'.repeat(100), pedidoCanal: 'C'.repeat(100), codigoRastreio: 'R'.repeat(100), codigoEnvio: 'E'.repeat(50),
      rotulo: 'Ró'.repeat(127) + 'x', descricao: 'D'.repeat(500), sigla: 'S'.repeat(10), dataHora: '2026-11-21T10:00:00.123456789+05:30',
    };
    expect((await registrar(loja, limits)).status).toBe(201);
    const record = await rastreio(loja, `chave=codigoRastreio&valor=${'R'.repeat(100)}`);
    expect(record.body).toMatchObject({ numeroPedido: limits.numeroPedido, pedidoCanal: limits.pedidoCanal });
    expect(record.body.volumes[0]).toMatchObject({ codigoRastreio: limits.codigoRastreio, codigoEnvio: limits.codigoEnvio, rotulo: limits.rotulo });
    expect(record.body.volumes[0].eventos[0]).toMatchObject({ descricao: limits.descricao, sigla: limits.sigla, dataHora: limits.dataHora });
  });

  it('never loses an event when writes to one order race, even the first ones, and never duplicates one', async () => {
    const numeroPedido = `P-${uniqueId()}`;
    const distinct = await Promise.all(
      Array.from({ length: 12 }, (_, index) => registrar(loja, { numeroPedido, codigoRastreio: `BR7${index % 3}`, descricao: `evento ${index}` })),
    );
    expect(distinct.map((response) => response.status)).toEqual(Array(12).fill(201));
    expect(new Set(distinct.map((response) => response.body.idPedido)).size).toBe(1);
    expect(new Set(distinct.map((response) => response.body.linkRastreio)).size).toBe(1);

    const same = await Promise.all(Array.from({ length: 6 }, () => registrar(loja, { numeroPedido, codigoRastreio: 'BR70', descricao: 'repetido' })));
    expect(same.map((response) => response.status).sort()).toEqual([200, 200, 200, 200, 200, 201]);
    expect(new Set(same.map((response) => response.body.hash)).size).toBe(1);

    const record = await rastreio(loja, `chave=numeroPedido&valor=${numeroPedido}`);
    expect(record.body.totalVolumes).toBe(3);
    expect(record.body.volumes.map((volume: { totalEventos: number }) => volume.totalEventos).reduce((a: number, b: number) => a + b)).toBe(13);
    const pedidos = await api('GET', '/pedidos?porPagina=100', { token: loja.token });
    expect(pedidos.body.pedidos.filter((pedido: { numeroPedido: string }) => pedido.numeroPedido === numeroPedido)).toHaveLength(1);
  });
});

describe('PUT /pedidoRastreio/evento/{hash} (docs/API.md section 4)', () => {
  let loja: TestStore;
  let outra: TestStore;
  beforeAll(async () => {
    [loja, outra] = await Promise.all([createStore(), createStore('Outra Loja')]);
  });

  it('corrects an event as a new fact: same hash, corrected values, re-sorted by the corrected moment', async () => {
    const numeroPedido = `P-${uniqueId()}`;
    const first = await registrar(loja, { numeroPedido, codigoRastreio: 'BR800', dataHora: '2026-11-21T10:00:00Z', descricao: 'Postado', sigla: 'PO' });
    await registrar(loja, { numeroPedido, codigoRastreio: 'BR800', dataHora: '2026-11-21T12:00:00Z', descricao: 'Em trânsito' });
    const corrected = await api('PUT', `/pedidoRastreio/evento/${first.body.hash}`, {
      token: loja.token,
      body: { dataHora: '2026-11-21T13:00:00Z', descricao: 'Postado (corrigido)', visivelClienteFinal: false },
    });
    expect(corrected.status).toBe(200);
    expect(corrected.body).toEqual({
      hash: first.body.hash, tipo: 'envio', dataHora: '2026-11-21T13:00:00Z', descricao: 'Postado (corrigido)', sigla: 'PO', visivelClienteFinal: false, origem: 'api',
    });
    const record = await rastreio(loja, `chave=idPedido&valor=${first.body.idPedido}`);
    expect(record.body.volumes[0].eventos.map((evento: { descricao: string }) => evento.descricao)).toEqual(['Em trânsito', 'Postado (corrigido)']);
    expect(record.body.volumes[0].totalEventos).toBe(2);
  });

  it('finds no other store’s hash, no unknown hash, and refuses an empty or invalid correction', async () => {
    const first = await registrar(loja, { numeroPedido: `P-${uniqueId()}`, codigoRastreio: 'BR801' });
    expectProblem(await api('PUT', `/pedidoRastreio/evento/${first.body.hash}`, { token: outra.token, body: { descricao: 'invasão' } }), 404);
    expectProblem(await api('PUT', `/pedidoRastreio/evento/${'0'.repeat(40)}`, { token: loja.token, body: { descricao: 'x' } }), 404);
    expectProblem(await api('PUT', '/pedidoRastreio/evento/nao-e-hash', { token: loja.token, body: { descricao: 'x' } }), 404);
    expectInvalid(await api('PUT', `/pedidoRastreio/evento/${first.body.hash}`, { token: loja.token, body: {} }), 'descricao');
    expectInvalid(await api('PUT', `/pedidoRastreio/evento/${first.body.hash}`, { token: loja.token, body: { descricao: 'd'.repeat(501) } }), 'descricao');
    expectInvalid(await api('PUT', `/pedidoRastreio/evento/${first.body.hash}`, { token: loja.token, body: { dataHora: '2026-11-21 10:00' } }), 'dataHora');
    expectInvalid(await api('PUT', `/pedidoRastreio/evento/${first.body.hash}`, { token: loja.token, body: { sigla: 'x'.repeat(11), hash: 'y' } }), 'sigla', 'hash');
    const record = await rastreio(loja, `chave=idPedido&valor=${first.body.idPedido}`);
    expect(record.body.volumes[0].eventos[0].descricao).toBe('Objeto postado');
  });
});

describe('GET /pedidoRastreio (docs/API.md section 4)', () => {
  let loja: TestStore;
  let outra: TestStore;
  const numeroPedido = `P-${uniqueId()}`;
  const pedidoCanal = `MKT-${uniqueId()}`;
  let idPedido: string;

  beforeAll(async () => {
    [loja, outra] = await Promise.all([createStore(), createStore('Outra Loja')]);
    // Registered out of order, with different offsets; one internal event.
    const eventos = [
      { codigoRastreio: 'BR900', dataHora: '2026-11-21T15:00:00-03:00', descricao: 'Saiu para entrega' }, // 18:00Z
      { codigoRastreio: 'BR900', dataHora: '2026-11-20T09:00:00Z', descricao: 'Postado', pedidoCanal },
      { codigoRastreio: 'BR900', dataHora: '2026-11-21T12:30:00Z', descricao: 'Conferência interna', visivelClienteFinal: false },
      { identificador: `CX-${uniqueId()}`, codigoEnvio: 'ENV-2', rotulo: 'Caixa 2', dataHora: '2026-11-20T10:00:00Z', descricao: 'Separado' },
    ];
    for (const evento of eventos) {
      const response = await registrar(loja, { numeroPedido, ...evento });
      expect(response.status).toBe(201);
      idPedido = response.body.idPedido;
    }
  });

  it('answers the whole record by each of the four filters, a tracking code expanding to every volume of its order', async () => {
    const byId = await rastreio(loja, `chave=idPedido&valor=${idPedido}`);
    expect(byId.status).toBe(200);
    expect(byId.headers['content-type']).toMatch(/^application\/json/);
    expect(byId.body).toEqual({
      idPedido,
      numeroPedido,
      pedidoCanal,
      linkRastreio: expect.stringMatching(/\/rastreio\//),
      totalVolumes: 2,
      volumes: [
        {
          chaveEnvio: 'BR900', origemChave: 'codigoRastreio', codigoRastreio: 'BR900', chaveNFe: null, rotulo: null, codigoEnvio: '',
          tipoPedido: 'envio', status: 'ativo', totalEventos: 3, eventos: expect.any(Array),
        },
        expect.objectContaining({ origemChave: 'identificador', codigoRastreio: null, rotulo: 'Caixa 2', codigoEnvio: 'ENV-2', totalEventos: 1 }),
      ],
    });
    for (const query of [`chave=numeroPedido&valor=${numeroPedido}`, `chave=pedidoCanal&valor=${pedidoCanal}`, 'chave=codigoRastreio&valor=BR900']) {
      const response = await rastreio(loja, query);
      expect(response.status).toBe(200);
      expect(response.body).toEqual(byId.body);
    }
  });

  it('answers HEAD as GET would, without the body', async () => {
    const head = await api('HEAD', `/pedidoRastreio?chave=idPedido&valor=${idPedido}`, { token: loja.token });
    expect(head.status).toBe(200);
    expect(head.headers['content-type']).toMatch(/^application\/json/);
    expect(head.text).toBe('');
    expect((await api('HEAD', '/pedidoRastreio?chave=idPedido&valor=nao-existe', { token: loja.token })).status).toBe(404);
  });

  it('lists each volume’s events oldest first whatever the registration order, internal ones included and counted', async () => {
    const { body } = await rastreio(loja, `chave=idPedido&valor=${idPedido}`);
    expect(body.volumes[0].eventos).toEqual([
      { hash: expect.stringMatching(/^[0-9a-f]{40}$/), tipo: 'envio', dataHora: '2026-11-20T09:00:00Z', descricao: 'Postado', sigla: '', visivelClienteFinal: true, origem: 'api' },
      expect.objectContaining({ dataHora: '2026-11-21T12:30:00Z', descricao: 'Conferência interna', visivelClienteFinal: false }),
      expect.objectContaining({ dataHora: '2026-11-21T15:00:00-03:00', descricao: 'Saiu para entrega', visivelClienteFinal: true }),
    ]);
    expect(body.volumes[0].totalEventos).toBe(3);
  });

  it('answers 400 to a chave outside the four, a missing chave or valor, and values over their sizes', async () => {
    expectInvalid(await rastreio(loja, 'chave=cpf&valor=123'), 'chave');
    expectInvalid(await rastreio(loja, `chave=${'numeroPedido'.repeat(2)}&valor=1`), 'chave');
    expectInvalid(await rastreio(loja, 'chave=numeroPedido'), 'valor');
    expectInvalid(await rastreio(loja, 'chave=numeroPedido&valor='), 'valor');
    expectInvalid(await rastreio(loja, 'valor=123'), 'chave');
    expectInvalid(await rastreio(loja, `chave=numeroPedido&valor=${'9'.repeat(101)}`), 'valor');
    expectInvalid(await rastreio(loja, `chave=numeroPedido&valor=${numeroPedido}&tipoPedido=troca`), 'tipoPedido');
    expectInvalid(await rastreio(loja, `chave=numeroPedido&valor=${numeroPedido}&extra=1`), 'extra');
  });

  it('answers 404 when the store has no manual tracking for the filter, and never reaches another store’s', async () => {
    expectProblem(await rastreio(loja, 'chave=numeroPedido&valor=nao-existe'), 404);
    expectProblem(await rastreio(loja, 'chave=codigoRastreio&valor=nao-existe'), 404);
    for (const query of [`chave=idPedido&valor=${idPedido}`, `chave=numeroPedido&valor=${numeroPedido}`, `chave=pedidoCanal&valor=${pedidoCanal}`, 'chave=codigoRastreio&valor=BR900']) {
      expectProblem(await rastreio(outra, query), 404);
    }
    // An order without any tracking event has no manual tracking.
    const semRastreio = `P-${uniqueId()}`;
    const saved = await api('PUT', '/pedido', {
      token: loja.token,
      body: { numeroPedido: semRastreio, cliente: { nome: 'Ana' }, itens: [], valorTotal: 0, dataPedido: '2026-11-21T10:00:00Z' },
    });
    expect(saved.status).toBe(201);
    expectProblem(await rastreio(loja, `chave=numeroPedido&valor=${semRastreio}`), 404);
    expectProblem(await rastreio(loja, `chave=idPedido&valor=${saved.body.idPedido}`), 404);
  });

  it('resolves an envio and a reversa with one number by tipoPedido, the envio without it', async () => {
    const numero = `P-${uniqueId()}`;
    await registrar(loja, { numeroPedido: numero, codigoRastreio: 'BR-IDA', descricao: 'ida' });
    await registrar(loja, { numeroPedido: numero, tipoPedido: 'reversa', codigoRastreio: 'BR-VOLTA', descricao: 'volta' });
    const envio = await rastreio(loja, `chave=numeroPedido&valor=${numero}`);
    const reversa = await rastreio(loja, `chave=numeroPedido&valor=${numero}&tipoPedido=reversa`);
    expect(envio.body.volumes[0]).toMatchObject({ codigoRastreio: 'BR-IDA', tipoPedido: 'envio' });
    expect(reversa.body.volumes[0]).toMatchObject({ codigoRastreio: 'BR-VOLTA', tipoPedido: 'reversa' });
    expect(reversa.body.volumes[0].eventos[0].tipo).toBe('reversa');
    expect(envio.body.idPedido).not.toBe(reversa.body.idPedido);
  });

  it('needs the store’s token', async () => {
    const response = await api('GET', `/pedidoRastreio?chave=idPedido&valor=${idPedido}`);
    expectProblem(response, 401);
  });
});
