import { createHash, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { TrackingMessage } from '@trilha/contracts';
import { dataSourceOptions, migrate, type ServiceDatabase } from '@trilha/event-store';
import { descreverPedido } from '@trilha/atendimento-domain';
import { testStack } from '@trilha/testing';
import { RastreioPedidos1732000000310 } from '../migrations/1732000000310-rastreio-pedidos';
import { RastreioPedidos } from '../shared';
import { aplicarEventoDeRastreio } from './aplicar-evento-de-rastreio';

/** The agents' tracking view against the real PostgreSQL, fed with contract-shaped tracking events. */
describe('rastreio view (PostgreSQL)', () => {
  const stack = testStack();
  const schema = `it_rastreio_${randomUUID().replace(/-/g, '').slice(0, 10)}`;
  const database: ServiceDatabase = { url: stack.infra.databaseUrl, schema, poolSize: 3, migrations: [RastreioPedidos1732000000310] };
  let dataSource: DataSource;
  let view: RastreioPedidos;

  beforeAll(async () => {
    await migrate(database);
    dataSource = await new DataSource(dataSourceOptions(database)).initialize();
    view = new RastreioPedidos(dataSource);
  });

  afterAll(async () => {
    await dataSource.query(`DROP SCHEMA ${schema} CASCADE`);
    await dataSource.destroy();
  });

  /** As the consumer runs it: no inbox, no transaction around it (it is one statement). */
  const aplicar = (idLoja: number, type: TrackingMessage['type'], data: object) =>
    aplicarEventoDeRastreio(
      { id: randomUUID(), type, schemaVersion: 1, occurredAt: new Date().toISOString(), idLoja, correlationId: 'c', causationId: null, traceparent: null, data } as TrackingMessage,
      dataSource.manager,
    );

  const pedido = (idPedido: string, numeroPedido: string, pedidoCanal: string | null = null) =>
    ({ idPedido, numeroPedido, tipoPedido: 'envio', pedidoCanal, linkRastreio: `https://t/rastreio/${idPedido}` });
  const volume = (ref: ReturnType<typeof pedido>, codigoRastreio: string) =>
    ({ ...ref, chaveEnvio: codigoRastreio, origemChave: 'codigoRastreio', codigoRastreio, chaveNFe: null, identificador: null, codigoEnvio: null, rotulo: null as string | null });
  const evento = (ref: ReturnType<typeof pedido>, codigo: string, dataHora: string, descricao: string, visivelClienteFinal = true) => ({
    ...volume(ref, codigo), hash: createHash('sha1').update(`${ref.idPedido}${codigo}${dataHora}${descricao}`).digest('hex'),
    dataHora, descricao, sigla: '', visivelClienteFinal, origem: 'api', encerraVolume: false,
  });
  const corrigir = ({ origem: _o, encerraVolume: _e, ...dados }: ReturnType<typeof evento>, mudancas: object) => ({ ...dados, ...mudancas });

  it('finds an order by number, channel number or tracking code, whatever the case, within its store only', async () => {
    const a = pedido(randomUUID().slice(0, 32), '5001', 'CANAL-1');
    const b = pedido(randomUUID().slice(0, 32), '5001');
    await aplicar(1, 'pedido.salvo', { ...a, situacao: 'enviado', atualizadoEm: '2026-03-01T10:00:00Z' });
    await aplicar(1, 'rastreio.evento.registrado', evento(a, 'AA1BR', '2026-03-01T10:00:00-03:00', 'Postado'));
    await aplicar(2, 'rastreio.evento.registrado', evento(b, 'BB1BR', '2026-03-01T10:00:00-03:00', 'Postado na loja 2'));

    for (const chave of ['5001', 'CANAL-1', 'AA1BR']) expect((await view.buscar(1, [chave])).map((p) => p.idPedido)).toEqual([a.idPedido]);
    expect(await view.buscar(1, ['BB1BR'])).toEqual([]);
    expect((await view.buscar(2, ['5001'])).map((p) => p.idPedido)).toEqual([b.idPedido]);
    // A message about another store's order id changes nothing of it.
    await aplicar(2, 'pedido.salvo', { ...a, numeroPedido: 'SEQUESTRO', situacao: 'novo', atualizadoEm: '2026-03-02T10:00:00Z' });
    expect((await view.buscar(1, ['5001']))[0].numeroPedido).toBe('5001');
    expect(await view.buscar(2, ['SEQUESTRO'])).toEqual([]);
  });

  it('keeps a channel number a tracking event leaves out, and takes pedido.salvo’s as it is', async () => {
    const ref = pedido(randomUUID().slice(0, 32), '6001', 'CANAL-6');
    await aplicar(1, 'pedido.salvo', { ...ref, situacao: 'novo', atualizadoEm: '2026-03-01T10:00:00Z' });
    await aplicar(1, 'rastreio.evento.registrado', evento({ ...ref, pedidoCanal: null }, 'CC6BR', '2026-03-01T10:00:00-03:00', 'Postado'));
    expect(await view.buscar(1, ['CANAL-6'])).toHaveLength(1);
    await aplicar(1, 'pedido.salvo', { ...ref, pedidoCanal: 'CANAL-7', situacao: 'enviado', atualizadoEm: '2026-03-02T10:00:00Z' });
    expect(await view.buscar(1, ['CANAL-6'])).toEqual([]);
    expect(await view.buscar(1, ['CANAL-7'])).toHaveLength(1);
  });

  it('reads only customer-visible events, as corrected, and a redelivered event once', async () => {
    const ref = pedido(randomUUID().slice(0, 32), '7001');
    const postado = evento(ref, 'DD7BR', '2026-03-01T10:00:00-03:00', 'Postado');
    const transito = evento(ref, 'DD7BR', '2026-03-02T10:00:00-03:00', 'Em trânsito');
    const interno = evento(ref, 'DD7BR', '2026-03-03T10:00:00-03:00', 'Conferência interna', false);
    for (const e of [postado, transito, transito, interno]) await aplicar(1, 'rastreio.evento.registrado', e);

    const [lido] = await view.buscar(1, ['7001']);
    expect(lido.volumes).toHaveLength(1);
    expect(lido.volumes[0].eventos.map((e) => e.descricao)).toEqual(['Postado', 'Em trânsito']);
    expect(descreverPedido(lido)).toMatch(/^Pedido 7001: Em trânsito \(02\/03\/2026 às 10:00\)/);

    await aplicar(1, 'rastreio.evento.corrigido', corrigir(transito, { descricao: 'Em trânsito para Natal' }));
    expect(descreverPedido((await view.buscar(1, ['7001']))[0])).toMatch(/Em trânsito para Natal/);
    await aplicar(1, 'rastreio.evento.corrigido', corrigir(transito, { visivelClienteFinal: false }));
    await aplicar(1, 'rastreio.evento.corrigido', corrigir(interno, { visivelClienteFinal: true, descricao: 'Saiu para entrega' }));
    expect(descreverPedido((await view.buscar(1, ['7001']))[0])).toMatch(/^Pedido 7001: Saiu para entrega \(03\/03\/2026 às 10:00\)/);
  });

  it('writes no new version of the order or the volume when an event changes nothing of them', async () => {
    const ref = pedido(randomUUID().slice(0, 32), '7501', 'CANAL-75');
    const versoes = async () => ({
      pedido: (await dataSource.query(`SELECT xmin::text AS v FROM rastreio_pedidos WHERE id_pedido = $1`, [ref.idPedido]))[0].v,
      volume: (await dataSource.query(`SELECT xmin::text AS v FROM rastreio_volumes WHERE id_pedido = $1`, [ref.idPedido]))[0].v,
    });
    await aplicar(1, 'rastreio.evento.registrado', evento(ref, 'GG75BR', '2026-03-01T10:00:00-03:00', 'Postado'));
    const primeiras = await versoes();
    await aplicar(1, 'rastreio.evento.registrado', evento(ref, 'GG75BR', '2026-03-02T10:00:00-03:00', 'Em trânsito'));
    await aplicar(1, 'rastreio.evento.registrado', evento({ ...ref, pedidoCanal: null }, 'GG75BR', '2026-03-03T10:00:00-03:00', 'Em rota'));
    expect(await versoes()).toEqual(primeiras);
    // A new label is a change of the volume only.
    await aplicar(1, 'rastreio.evento.registrado', { ...evento(ref, 'GG75BR', '2026-03-04T10:00:00-03:00', 'Separado'), rotulo: 'Caixa 2' });
    const depois = await versoes();
    expect(depois.pedido).toBe(primeiras.pedido);
    expect(depois.volume).not.toBe(primeiras.volume);
    expect((await view.buscar(1, ['7501']))[0].volumes[0].rotulo).toBe('Caixa 2');
  });

  it('marks a volume closed by its event', async () => {
    const ref = pedido(randomUUID().slice(0, 32), '8001');
    await aplicar(1, 'rastreio.evento.registrado', { ...evento(ref, 'EE8BR', '2026-03-01T10:00:00-03:00', 'Entregue'), encerraVolume: true });
    const [lido] = await view.buscar(1, ['8001']);
    expect(lido.volumes[0]).toMatchObject({ encerrado: true, codigoRastreio: 'EE8BR' });
  });

  it('ends where it was when a suffix of a store’s messages is delivered again in order (why it needs no inbox)', async () => {
    const ref = pedido(randomUUID().slice(0, 32), '9001', 'CANAL-9');
    const postado = evento(ref, 'FF9BR', '2026-03-01T10:00:00-03:00', 'Postado');
    const interno = { ...evento(ref, 'FF9BR', '2026-03-02T10:00:00-03:00', 'Conferência', false), pedidoCanal: null, rotulo: 'Caixa 1' };
    const mensagens: [TrackingMessage['type'], object][] = [
      ['pedido.salvo', { ...ref, situacao: 'novo', atualizadoEm: '2026-03-01T09:00:00Z' }],
      ['rastreio.evento.registrado', postado],
      ['rastreio.evento.registrado', interno],
      ['rastreio.evento.corrigido', corrigir(postado, { descricao: 'Postado na agência' })],
      ['pedido.salvo', { ...ref, pedidoCanal: 'CANAL-10', situacao: 'enviado', atualizadoEm: '2026-03-02T09:00:00Z' }],
      ['rastreio.evento.registrado', { ...evento({ ...ref, pedidoCanal: 'CANAL-10' }, 'FF9BR', '2026-03-03T10:00:00-03:00', 'Entregue'), encerraVolume: true }],
      ['rastreio.evento.corrigido', corrigir(interno, { visivelClienteFinal: true, descricao: 'Conferido' })],
    ];
    const fotografia = async () => ({
      pedidos: await dataSource.query(`SELECT * FROM rastreio_pedidos WHERE id_pedido = $1`, [ref.idPedido]),
      volumes: await dataSource.query(`SELECT * FROM rastreio_volumes WHERE id_pedido = $1 ORDER BY ordem`, [ref.idPedido]),
      eventos: await dataSource.query(`SELECT * FROM rastreio_eventos WHERE id_pedido = $1 ORDER BY ordem`, [ref.idPedido]),
    });
    for (const [type, data] of mensagens) await aplicar(1, type, data);
    const primeiraPassagem = await fotografia();
    expect(primeiraPassagem.pedidos[0].pedido_canal).toBe('CANAL-10');
    expect(primeiraPassagem.volumes[0]).toMatchObject({ rotulo: 'Caixa 1', encerrado: true });
    expect(primeiraPassagem.eventos.map((e: { descricao: string; visivel: boolean }) => [e.descricao, e.visivel]))
      .toEqual([['Postado na agência', true], ['Conferido', true], ['Entregue', true]]);

    for (let desde = 0; desde < mensagens.length; desde += 1) {
      for (const [type, data] of mensagens.slice(desde)) await aplicar(1, type, data);
      expect(await fotografia()).toEqual(primeiraPassagem);
    }
  });
});
