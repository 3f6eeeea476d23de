import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { dataSourceOptions, EventStore, handleCommand, migrate, rebuildProjections, type ServiceDatabase } from '@trilha/event-store';
import {
  evolveRastreio,
  pedidoDecider,
  pedidoStreamId,
  registroRastreio,
  type DadosPedido,
  type NovoEvento,
  type NovoPedido,
  type PedidoCommand,
  type PedidoEvent,
  type Rastreio,
} from '@trilha/tracking-domain';
import { testStack } from '@trilha/testing';
import { novoIdCompacto } from '@trilha/ids';
import { novoTokenRastreio } from '../ids';
import { trackingMigrations } from '../migrations';
import { PedidosProjection } from './pedidos.projection';
import { RastreiosProjection } from './rastreios.projection';
import { trackingRouting } from './tracking.routing';

const ID_LOJA = 11;

describe('tracking read models (PostgreSQL)', () => {
  const stack = testStack();
  const schema = `it_tracking_${randomUUID().replace(/-/g, '').slice(0, 10)}`;
  const database: ServiceDatabase = { url: stack.infra.databaseUrl, schema, poolSize: 8, migrations: trackingMigrations };
  const projections = [new PedidosProjection(), new RastreiosProjection()];
  let dataSource: DataSource;
  let store: EventStore<PedidoEvent>;

  const novo = (): NovoPedido => {
    const tokenRastreio = novoTokenRastreio();
    return { idPedido: novoIdCompacto(), tokenRastreio, linkRastreio: `https://it.test/rastreio/${tokenRastreio}` };
  };
  const dados = (numeroPedido: string): DadosPedido => ({
    numeroPedido, tipoPedido: 'envio', pedidoCanal: null, canalVenda: null, situacao: 'novo', cliente: { nome: 'Ana' }, enderecoEntrega: null,
    itens: [], valorTotal: 0, dataPedido: '2026-11-21T10:00:00Z',
  });
  const evento = (numeroPedido: string, index: number): NovoEvento => ({
    numeroPedido, tipoPedido: 'envio', pedidoCanal: `MKT-${index % 3}`, codigoRastreio: `BR${index % 2}`, chaveNFe: null, identificador: null,
    codigoEnvio: null, rotulo: null, dataHora: `2026-11-21T10:${String(59 - (index % 60)).padStart(2, '0')}:00Z`, descricao: `evento ${index}`,
    sigla: '', visivelClienteFinal: index % 4 !== 0, encerraVolume: false, origem: 'api',
  });
  const run = (idPedido: string, command: PedidoCommand) => handleCommand(store, pedidoDecider, pedidoStreamId(idPedido), command, { idLoja: ID_LOJA });

  beforeAll(async () => {
    await migrate(database);
    dataSource = await new DataSource(dataSourceOptions(database)).initialize();
    store = new EventStore(dataSource, trackingRouting, projections);
  });

  afterAll(async () => {
    await dataSource.query(`DROP SCHEMA ${schema} CASCADE`);
    await dataSource.destroy();
  });

  it('lets only one of two racing first writes of one numeroPedido + tipoPedido commit an order', async () => {
    const agora = new Date().toISOString();
    const [a, b] = [novo(), novo()];
    const results = await Promise.allSettled([
      run(a.idPedido, { acao: 'salvar', idLoja: ID_LOJA, dados: dados('RACE-1'), novo: a, agora }),
      run(b.idPedido, { acao: 'salvar', idLoja: ID_LOJA, dados: dados('RACE-1'), novo: b, agora }),
    ]);
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
    const failure = results.find((result) => result.status === 'rejected') as PromiseRejectedResult;
    expect(failure.reason).toMatchObject({ constraint: 'pedidos_chave_unica' });
    expect(await dataSource.query(`SELECT count(*)::int AS n FROM pedidos WHERE numero_pedido = 'RACE-1'`)).toEqual([{ n: 1 }]);
    // The loser left nothing behind: no events, no outbox message.
    const streams = await dataSource.query(`SELECT DISTINCT stream_id FROM events WHERE stream_id = ANY($1)`, [[pedidoStreamId(a.idPedido), pedidoStreamId(b.idPedido)]]);
    expect(streams).toHaveLength(1);
  });

  it('rebuilds to exactly what the events say while writers keep appending', async () => {
    const pedidos = Array.from({ length: 6 }, (_, index) => ({ numeroPedido: `REB-${index}`, novo: novo() }));
    const agora = new Date().toISOString();
    for (const pedido of pedidos) {
      await run(pedido.novo.idPedido, { acao: 'registrarEvento', idLoja: ID_LOJA, evento: evento(pedido.numeroPedido, 0), novo: pedido.novo, agora });
    }
    let writing = true;
    const writers = pedidos.map(async (pedido) => {
      for (let index = 1; writing || index < 10; index += 1) {
        await run(pedido.novo.idPedido, { acao: 'registrarEvento', idLoja: ID_LOJA, evento: evento(pedido.numeroPedido, index), agora });
      }
    });
    for (let round = 0; round < 3; round += 1) await rebuildProjections(dataSource, projections, () => undefined);
    writing = false;
    await Promise.all(writers);

    for (const pedido of pedidos) {
      const events = await store.readStream(pedidoStreamId(pedido.novo.idPedido));
      const expected = registroRastreio(events.reduce<Rastreio | null>(evolveRastreio, null)!);
      const [row] = await dataSource.query(`SELECT documento, pedido_canal FROM rastreios WHERE id_pedido = $1`, [pedido.novo.idPedido]);
      expect(JSON.parse(row.documento)).toEqual(expected);
      expect(row.pedido_canal).toBe(expected.pedidoCanal);
      const hashes = await dataSource.query(`SELECT count(*)::int AS n FROM rastreio_hashes WHERE id_pedido = $1`, [pedido.novo.idPedido]);
      expect(hashes).toEqual([{ n: expected.volumes.reduce((sum, volume) => sum + volume.totalEventos, 0) }]);
    }
    expect(await dataSource.query(`SELECT count(*)::int AS n FROM rastreio_codigos`)).toEqual([{ n: 2 * pedidos.length }]);
  });
});
