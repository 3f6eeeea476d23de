import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Consumer, KafkaMessage } from 'kafkajs';
import { Client } from 'pg';
import { parseEventMessage, TOPICS, TRACKING_CONTRACT, type TrackingMessage } from '@trilha/contracts';
import { createKafka } from '@trilha/event-store';
import { apiClient, clientAddress, eventually, testStack } from '@trilha/testing';

const stack = testStack();
const api = apiClient(stack.baseUrl, stack.caFile);
const unique = () => randomBytes(5).toString('hex');
const main = join(__dirname, '../../../dist/apps/tracking-service/src/main.js');

async function novaLoja() {
  const created = await api('POST', '/admin/lojas', { headers: { 'x-admin-key': stack.adminApiKey }, body: { nome: 'Loja Eventos' } });
  const auth = await api('GET', `/autenticacao/${created.body.codigo}`, { headers: clientAddress() });
  return { idLoja: created.body.idLoja as number, token: auth.body.token as string };
}

describe('tracking.events.v1 (published exactly as libs/contracts defines it)', () => {
  const received: KafkaMessage[] = [];
  let consumer: Consumer;

  beforeAll(async () => {
    consumer = createKafka({ brokers: [stack.infra.kafkaBrokers] }, `e2e-tracking-${unique()}`).consumer({ groupId: `e2e-tracking-${unique()}` });
    await consumer.connect();
    await consumer.subscribe({ topic: TOPICS.tracking, fromBeginning: true });
    await consumer.run({ eachMessage: async ({ message }) => void received.push(message) });
  });

  afterAll(() => consumer.disconnect());

  /** The store's messages, once `count` of them arrived, validated against the contract. */
  const messagesOf = (idLoja: number, count: number) =>
    eventually(`${count} tracking messages of store ${idLoja}`, () => {
      const mine = received.filter((message) => String(message.key) === String(idLoja));
      return mine.length >= count ? mine.map((message) => parseEventMessage<TrackingMessage>(JSON.parse(String(message.value)), TRACKING_CONTRACT)) : undefined;
    }, 20_000);

  it('publishes pedido.salvo for an order created by its first tracking event, then the event, then its correction', async () => {
    const loja = await novaLoja();
    const numeroPedido = `P-${unique()}`;
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
    expect(salvo.data).toEqual({ ...ref, situacao: 'novo', atualizadoEm: expect.stringMatching(/Z$/) });
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
    const loja = await novaLoja();
    const body = {
      numeroPedido: `P-${unique()}`, pedidoCanal: 'MKT-1', cliente: { nome: 'Ana', email: 'ana@example.com' }, itens: [], valorTotal: 10,
      dataPedido: '2026-11-21T10:00:00Z', situacao: 'aprovado',
    };
    const created = await api('PUT', '/pedido', { token: loja.token, body });
    expect(created.status).toBe(201);
    expect((await api('PUT', '/pedido', { token: loja.token, body: { ...body, situacao: 'enviado' } })).status).toBe(200);
    const messages = await messagesOf(loja.idLoja, 2);
    expect(messages.map((message) => [message.type, (message.data as { situacao: string }).situacao])).toEqual([
      ['pedido.salvo', 'aprovado'],
      ['pedido.salvo', 'enviado'],
    ]);
    expect(Object.keys(messages[0].data).sort()).toEqual(['atualizadoEm', 'idPedido', 'linkRastreio', 'numeroPedido', 'pedidoCanal', 'situacao', 'tipoPedido']);
  });
});

describe('read models rebuilt from the event log with one command', () => {
  it('rebuilds orders, tracking records and lookups to the same content', async () => {
    const loja = await novaLoja();
    const numeroPedido = `P-${unique()}`;
    for (const [index, keys] of [{ codigoRastreio: 'BR1' }, { chaveNFe: '1'.repeat(44) }, { codigoRastreio: 'BR1' }].entries()) {
      await api('POST', '/pedidoRastreio/evento', {
        token: loja.token, body: { numeroPedido, ...keys, dataHora: `2026-11-2${index}T10:00:00Z`, descricao: `evento ${index}`, pedidoCanal: `MKT-${index}` },
      });
    }
    const db = new Client({ connectionString: stack.infra.databaseUrl });
    await db.connect();
    const snapshot = async () => {
      const tables = { pedidos: 'id_pedido', rastreios: 'id_pedido', rastreio_codigos: 'codigo_rastreio', rastreio_hashes: 'hash' };
      const rows: unknown[][] = [];
      for (const [table, key] of Object.entries(tables)) {
        rows.push((await db.query(`SELECT * FROM tracking.${table} WHERE id_loja = $1 ORDER BY ${key}`, [loja.idLoja])).rows);
      }
      return rows;
    };
    try {
      const before = await snapshot();
      expect(before.map((rows) => rows.length)).toEqual([1, 1, 1, 3]);
      await db.query('UPDATE tracking.rastreios SET documento = $2 WHERE id_loja = $1', [loja.idLoja, '{}']);
      const run = spawnSync(process.execPath, [main, 'rebuild-projections'], { env: { ...process.env, ...stack.env['tracking-service'] }, encoding: 'utf8' });
      expect(run.stderr).toMatch(/rebuilt pedidos \(\d+ events\), rastreios \(\d+ events\)/);
      expect(run.status).toBe(0);
      expect(await snapshot()).toEqual(before);
      const record = await api('GET', `/pedidoRastreio?chave=numeroPedido&valor=${numeroPedido}`, { token: loja.token });
      expect(record.body).toMatchObject({ pedidoCanal: 'MKT-2', totalVolumes: 2 });
    } finally {
      await db.end();
    }
  });
});
