import type { PedidoEvent } from './eventos';
import { decidePedido, evolvePedido, pedidoInicial, type NovoEvento, type PedidoState } from './pedido';
import { evolveRastreio, registroRastreio, vistaDoCliente, type Rastreio } from './rastreio';

const novo = { idPedido: '01JDPEDIDO0000000000000002', tokenRastreio: 'tok', linkRastreio: 'https://loja.test/rastreio/tok' };

/** Runs commands against the aggregate, collecting every event, as the service would store them. */
function history(...eventos: Partial<NovoEvento>[]): PedidoEvent[] {
  const events: PedidoEvent[] = [];
  let state: PedidoState = pedidoInicial();
  for (const overrides of eventos) {
    const evento: NovoEvento = {
      numeroPedido: 'P-2', tipoPedido: 'reversa', pedidoCanal: null, codigoRastreio: 'BR1', chaveNFe: null, identificador: null,
      codigoEnvio: null, rotulo: null, dataHora: '2026-11-21T10:00:00Z', descricao: 'x', sigla: '', visivelClienteFinal: true,
      encerraVolume: false, origem: 'api', ...overrides,
    };
    const decided = decidePedido({ acao: 'registrarEvento', idLoja: 3, evento, novo, agora: '2026-11-22T00:00:00Z' }, state);
    events.push(...decided);
    state = decided.reduce(evolvePedido, state);
  }
  return events;
}

const rastreioOf = (events: PedidoEvent[]): Rastreio => events.reduce<Rastreio | null>(evolveRastreio, null)!;

describe('tracking record (docs/API.md section 4)', () => {
  it('lists events oldest first by their moment, whatever the registration order or offset', () => {
    const record = registroRastreio(rastreioOf(history(
      { dataHora: '2026-11-21T12:00:00-03:00', descricao: 'terceiro' }, // 15:00Z
      { dataHora: '2026-11-21T10:00:00Z', descricao: 'primeiro' },
      { dataHora: '2026-11-21T14:00:00.500Z', descricao: 'segundo' },
    )));
    expect(record.volumes[0].eventos.map((evento) => evento.descricao)).toEqual(['primeiro', 'segundo', 'terceiro']);
  });

  it('has the fields GET /pedidoRastreio answers, counts internal events, and types events by the order', () => {
    const record = registroRastreio(rastreioOf(history(
      { descricao: 'visível', sigla: 'OK' },
      { descricao: 'interno', visivelClienteFinal: false, dataHora: '2026-11-21T11:00:00Z' },
      { codigoRastreio: null, identificador: 'CAIXA-2', codigoEnvio: 'ENV-2', rotulo: 'Caixa 2', descricao: 'outro volume' },
    )));
    expect(record).toEqual({
      idPedido: novo.idPedido,
      numeroPedido: 'P-2',
      pedidoCanal: null,
      linkRastreio: novo.linkRastreio,
      totalVolumes: 2,
      volumes: [
        expect.objectContaining({ chaveEnvio: 'BR1', origemChave: 'codigoRastreio', codigoRastreio: 'BR1', chaveNFe: null, rotulo: null, codigoEnvio: '', tipoPedido: 'reversa', status: 'ativo', totalEventos: 2 }),
        expect.objectContaining({ chaveEnvio: 'CAIXA-2', origemChave: 'identificador', codigoRastreio: null, rotulo: 'Caixa 2', codigoEnvio: 'ENV-2', totalEventos: 1 }),
      ],
    });
    expect(Object.keys(record.volumes[0]).sort()).toEqual(
      ['chaveEnvio', 'origemChave', 'codigoRastreio', 'chaveNFe', 'rotulo', 'codigoEnvio', 'tipoPedido', 'status', 'totalEventos', 'eventos'].sort(),
    );
    expect(record.volumes[0].eventos[1]).toEqual({
      hash: expect.stringMatching(/^[0-9a-f]{40}$/), tipo: 'reversa', dataHora: '2026-11-21T11:00:00Z', descricao: 'interno', sigla: '', visivelClienteFinal: false, origem: 'api',
    });
  });

  it('shows corrected values and re-sorts by the corrected moment', () => {
    const events = history({ descricao: 'a', dataHora: '2026-11-21T10:00:00Z' }, { descricao: 'b', dataHora: '2026-11-21T11:00:00Z' });
    const state = events.reduce(evolvePedido, pedidoInicial());
    const hashA = state.volumes[0].eventos[0].hash;
    const correction = decidePedido({ acao: 'corrigirEvento', hash: hashA, correcao: { dataHora: '2026-11-21T12:00:00Z', descricao: 'a corrigido' } }, state);
    const record = registroRastreio(rastreioOf([...events, ...correction]));
    expect(record.volumes[0].eventos.map((evento) => [evento.descricao, evento.hash === hashA])).toEqual([['b', false], ['a corrigido', true]]);
  });

  it('does not exist before the first tracking event', () => {
    const salvo = decidePedido({
      acao: 'salvar', idLoja: 3, novo, agora: '2026-11-22T00:00:00Z',
      dados: { numeroPedido: 'P-3', tipoPedido: 'envio', pedidoCanal: null, canalVenda: null, situacao: 'novo', cliente: { nome: 'A' }, enderecoEntrega: null, itens: [], valorTotal: 0, dataPedido: '2026-11-22T00:00:00Z' },
    }, pedidoInicial());
    expect(salvo.reduce<Rastreio | null>(evolveRastreio, null)).toBeNull();
  });
});

describe('what the customer sees', () => {
  it('shows each volume’s label and only customer-visible events, newest first', () => {
    const rastreio = rastreioOf(history(
      { descricao: 'Postado', dataHora: '2026-11-21T10:00:00Z', rotulo: 'Caixa azul' },
      { descricao: 'Conferência interna', dataHora: '2026-11-21T11:00:00Z', visivelClienteFinal: false },
      { descricao: 'Entregue', dataHora: '2026-11-21T12:00:00Z', encerraVolume: true },
      { codigoRastreio: null, identificador: 'ID-2', codigoEnvio: 'ENV-2', descricao: 'Separado' },
      { codigoRastreio: null, identificador: 'ID-3', descricao: 'Separado' },
    ));
    expect(vistaDoCliente(registroRastreio(rastreio), 'P-2')).toEqual({
      numeroPedido: 'P-2',
      volumes: [
        {
          rotulo: 'Caixa azul',
          codigoRastreio: 'BR1',
          status: 'encerrado',
          eventos: [{ dataHora: '2026-11-21T12:00:00Z', descricao: 'Entregue' }, { dataHora: '2026-11-21T10:00:00Z', descricao: 'Postado' }],
        },
        { rotulo: 'ENV-2', codigoRastreio: null, status: 'ativo', eventos: [{ dataHora: '2026-11-21T10:00:00Z', descricao: 'Separado' }] },
        { rotulo: 'Volume 3', codigoRastreio: null, status: 'ativo', eventos: [{ dataHora: '2026-11-21T10:00:00Z', descricao: 'Separado' }] },
      ],
    });
    expect(JSON.stringify(vistaDoCliente(registroRastreio(rastreio), 'P-2'))).not.toMatch(/interna|[0-9a-f]{40}/);
  });

  it('shows an order without tracking as having no volumes', () => {
    expect(vistaDoCliente(null, 'P-9')).toEqual({ numeroPedido: 'P-9', volumes: [] });
  });
});
