import { randomUUID } from 'node:crypto';
import { apiClient, createStore, expectInvalidExactly, expectProblem, testStack, type TestStore } from '@trilha/testing';

const stack = testStack();
const api = apiClient(stack.baseUrl, stack.caFile);

const abertura = (nome: string) => ({ canal: 'chat', tipo: 'duvida', dadosCliente: { nome } });
const abrir = (loja: TestStore, key: string, body: object = abertura('Maria')) =>
  api('POST', '/atendimentos', { token: loja.token, headers: { 'idempotency-key': key }, body });
const atendimentosDa = async (loja: TestStore): Promise<number> => (await api('GET', '/atendimentos', { token: loja.token })).body.total;

describe('Idempotency-Key on the routes that create (docs/API.md section 0)', () => {
  it('the same key twice creates once and answers the same body, however the key is quoted', async () => {
    const loja = await createStore();
    const key = randomUUID();
    const primeira = await abrir(loja, key);
    expect(primeira.status).toBe(201);
    const segunda = await abrir(loja, `"${key}"`);
    expect(segunda.status).toBe(201);
    expect(segunda.body).toEqual(primeira.body);
    expect(await atendimentosDa(loja)).toBe(1);
  });

  it('the same key with another body is a 422 problem, and creates nothing', async () => {
    const loja = await createStore();
    const key = randomUUID();
    expect((await abrir(loja, key)).status).toBe(201);
    const outra = await abrir(loja, key, abertura('João'));
    expectProblem(outra, 422);
    expect(outra.body.detail).toMatch(/já foi usada com outra requisição/);
    expect(await atendimentosDa(loja)).toBe(1);
  });

  it('requests sent at once with one key create once, and each answers the one body', async () => {
    const loja = await createStore();
    const key = randomUUID();
    const answers = await Promise.all(Array.from({ length: 6 }, () => abrir(loja, key)));
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 201));
    expect(new Set(answers.map((answer) => answer.body.idAtendimento)).size).toBe(1);
    expect(await atendimentosDa(loja)).toBe(1);
  });

  it('a key belongs to its store: another store using it creates its own', async () => {
    const [uma, outra] = [await createStore(), await createStore()];
    const key = randomUUID();
    const daUma = await abrir(uma, key);
    const daOutra = await abrir(outra, key);
    expect(daOutra.status).toBe(201);
    expect(daOutra.body.idAtendimento).not.toBe(daUma.body.idAtendimento);
    expect(daOutra.body.idLoja).toBe(outra.idLoja);
  });

  it('without a key, every request creates', async () => {
    const loja = await createStore();
    for (let n = 0; n < 2; n += 1) expect((await api('POST', '/atendimentos', { token: loja.token, body: abertura('Maria') })).status).toBe(201);
    expect(await atendimentosDa(loja)).toBe(2);
  });

  it('a key that is not 1 to 255 visible ASCII characters is a 400 naming the header', async () => {
    const loja = await createStore();
    for (const key of ['com espaço', 'x'.repeat(256), '"meia-aspa', 'a\\b']) {
      expectInvalidExactly(await abrir(loja, key), 'Idempotency-Key');
    }
    expect(await atendimentosDa(loja)).toBe(0);
  });

  it('a message, an agent and a tracking event are each created once under their key', async () => {
    const loja = await createStore();
    const { idAtendimento } = (await abrir(loja, randomUUID())).body;
    const key = randomUUID();
    const mensagem = { direcao: 'entrada', remetente: 'cliente', mensagem: 'Olá' };
    const mensagens = [];
    for (let n = 0; n < 2; n += 1) mensagens.push(await api('POST', `/atendimentos/${idAtendimento}/mensagens`, { token: loja.token, headers: { 'idempotency-key': key }, body: mensagem }));
    expect(mensagens.map((answer) => answer.status)).toEqual([201, 201]);
    expect(mensagens[1].body).toEqual(mensagens[0].body);
    expect((await api('GET', `/atendimentos/${idAtendimento}`, { token: loja.token })).body.totalMensagens).toBe(1);

    const agente = { nome: 'FAQ', descricao: 'Dúvidas', faq: [{ pergunta: 'Qual o prazo?', resposta: 'Cinco dias úteis.' }] };
    const agenteKey = randomUUID();
    const agentes = [];
    for (let n = 0; n < 2; n += 1) agentes.push(await api('POST', '/agentes', { token: loja.token, headers: { 'idempotency-key': agenteKey }, body: agente }));
    expect(agentes.map((answer) => answer.status)).toEqual([201, 201]);
    expect(agentes[1].body).toEqual(agentes[0].body);
    const { agentes: listados } = (await api('GET', '/agentes', { token: loja.token })).body;
    expect(listados.filter((listado: { nome: string }) => listado.nome === 'FAQ').map((listado: { idAgente: string }) => listado.idAgente)).toEqual([agentes[0].body.idAgente]);

    const evento = { numeroPedido: `n-${randomUUID()}`, codigoRastreio: 'BR123', dataHora: new Date().toISOString(), descricao: 'Postado' };
    const eventoKey = randomUUID();
    const eventos = [];
    for (let n = 0; n < 2; n += 1) eventos.push(await api('POST', '/pedidoRastreio/evento', { token: loja.token, headers: { 'idempotency-key': eventoKey }, body: evento }));
    // Without a key the repeat would answer 200 ("already recorded"); under the key it is the first answer again.
    expect(eventos.map((answer) => answer.status)).toEqual([201, 201]);
    expect(eventos[1].body).toEqual(eventos[0].body);
  });
});
