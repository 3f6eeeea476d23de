import { hashEvento } from './hash-evento';
import {
  decidePedido,
  EventoNaoEncontrado,
  evolvePedido,
  PedidoNaoEncontrado,
  pedidoInicial,
  VolumeEncerrado,
  type NovoEvento,
  type PedidoState,
} from './pedido';
import type { DadosPedido, PedidoEvent } from './eventos';
import { ChaveEnvioAusente } from './volumes';

const given = (...events: PedidoEvent[]): PedidoState => events.reduce(evolvePedido, pedidoInicial());
const novo = { idPedido: '01JDPEDIDO0000000000000001', tokenRastreio: 'tok', linkRastreio: 'https://loja.test/rastreio/tok' };
const agora = '2026-11-22T10:00:00.000Z';
const depois = '2026-11-22T11:00:00.000Z';

const dados: DadosPedido = {
  numeroPedido: 'P-1',
  tipoPedido: 'envio',
  pedidoCanal: 'MKT-1',
  canalVenda: 'marketplace',
  situacao: 'aprovado',
  cliente: { nome: 'Ana' },
  enderecoEntrega: null,
  itens: [{ sku: 'S1', descricao: 'Camiseta', quantidade: 2, valorUnitario: 49.9 }],
  valorTotal: 99.8,
  dataPedido: '2026-11-20T09:00:00-03:00',
};

const evento = (overrides: Partial<NovoEvento> = {}): NovoEvento => ({
  numeroPedido: 'P-1',
  tipoPedido: 'envio',
  pedidoCanal: null,
  codigoRastreio: 'BR123',
  chaveNFe: null,
  identificador: null,
  codigoEnvio: null,
  rotulo: null,
  dataHora: '2026-11-21T08:00:00-03:00',
  descricao: 'Postado',
  sigla: 'PO',
  visivelClienteFinal: true,
  encerraVolume: false,
  origem: 'api',
  ...overrides,
});

const salvo = decidePedido({ acao: 'salvar', idLoja: 7, dados, novo, agora }, pedidoInicial());
const registrar = (state: PedidoState, overrides: Partial<NovoEvento> = {}) =>
  decidePedido({ acao: 'registrarEvento', idLoja: 7, evento: evento(overrides), agora: depois }, state);

describe('pedido: saving an order', () => {
  it('creates the order with its identity and timestamps', () => {
    expect(salvo).toEqual([{ type: 'pedido.salvo', data: { ...novo, ...dados, criadoEm: agora, atualizadoEm: agora } }]);
  });

  it('updates an existing order, keeping its identity and creation time', () => {
    const events = decidePedido({ acao: 'salvar', idLoja: 7, dados: { ...dados, situacao: 'enviado' }, agora: depois }, given(...salvo));
    expect(events).toEqual([{ type: 'pedido.salvo', data: { ...novo, ...dados, situacao: 'enviado', criadoEm: agora, atualizadoEm: depois } }]);
  });

  it('records nothing when the order is saved unchanged, whatever the order of its fields', () => {
    const reordered = { ...dados, cliente: { email: undefined, nome: 'Ana' }, itens: [{ valorUnitario: 49.9, quantidade: 2, descricao: 'Camiseta', sku: 'S1' }] };
    expect(decidePedido({ acao: 'salvar', idLoja: 7, dados: reordered, agora: depois }, given(...salvo))).toEqual([]);
    expect(decidePedido({ acao: 'salvar', idLoja: 7, dados: { ...dados, itens: [] }, agora: depois }, given(...salvo))).toHaveLength(1);
  });

  it('refuses to update an order that does not exist without an identity to create it', () => {
    expect(() => decidePedido({ acao: 'salvar', idLoja: 7, dados, agora }, pedidoInicial())).toThrow(PedidoNaoEncontrado);
  });
});

describe('pedido: registering tracking events', () => {
  it('creates the order and the volume on the first event', () => {
    const events = decidePedido({ acao: 'registrarEvento', idLoja: 7, evento: evento({ pedidoCanal: 'MKT-9' }), novo, agora }, pedidoInicial());
    expect(events.map((event) => event.type)).toEqual(['pedido.salvo', 'rastreio.evento.registrado']);
    expect(events[0].data).toMatchObject({ idPedido: novo.idPedido, numeroPedido: 'P-1', pedidoCanal: 'MKT-9', situacao: 'novo', cliente: null, itens: [] });
    expect(events[1].data).toEqual({
      idPedido: novo.idPedido,
      numeroPedido: 'P-1',
      tipoPedido: 'envio',
      pedidoCanal: 'MKT-9',
      linkRastreio: novo.linkRastreio,
      chaveEnvio: 'BR123',
      origemChave: 'codigoRastreio',
      codigoRastreio: 'BR123',
      chaveNFe: null,
      identificador: null,
      codigoEnvio: null,
      rotulo: null,
      hash: hashEvento({ idLoja: 7, idPedido: novo.idPedido, chaveEnvio: 'BR123', dataHora: '2026-11-21T08:00:00-03:00', descricao: 'Postado', sigla: 'PO' }),
      dataHora: '2026-11-21T08:00:00-03:00',
      descricao: 'Postado',
      sigla: 'PO',
      visivelClienteFinal: true,
      origem: 'api',
      encerraVolume: false,
    });
    expect(events[1].data).toMatchObject({ hash: expect.stringMatching(/^[0-9a-f]{40}$/) });
  });

  it('keys a new volume by the first key present, in the order codigoRastreio, chaveNFe, identificador', () => {
    const nfe = '3'.repeat(44);
    const chave = (overrides: Partial<NovoEvento>) => {
      const [registrado] = registrar(given(...salvo), overrides);
      return registrado.type === 'rastreio.evento.registrado' && [registrado.data.chaveEnvio, registrado.data.origemChave];
    };
    expect(chave({ codigoRastreio: 'BR1', chaveNFe: nfe, identificador: 'ID1' })).toEqual(['BR1', 'codigoRastreio']);
    expect(chave({ codigoRastreio: null, chaveNFe: nfe, identificador: 'ID1' })).toEqual([nfe, 'chaveNFe']);
    expect(chave({ codigoRastreio: null, identificador: 'ID1' })).toEqual(['ID1', 'identificador']);
    expect(() => registrar(given(...salvo), { codigoRastreio: null })).toThrow(ChaveEnvioAusente);
  });

  it('keeps a volume’s chaveEnvio when a later event adds a tracking code to it', () => {
    const nfe = '3'.repeat(44);
    const first = registrar(given(...salvo), { codigoRastreio: null, chaveNFe: nfe, rotulo: 'Caixa 1' });
    const [later] = registrar(given(...salvo, ...first), { codigoRastreio: 'BR9', chaveNFe: nfe, descricao: 'Coletado' });
    expect(later.data).toMatchObject({ chaveEnvio: nfe, origemChave: 'chaveNFe', codigoRastreio: 'BR9', chaveNFe: nfe, rotulo: 'Caixa 1' });
    expect(given(...salvo, ...first, later).volumes).toHaveLength(1);
  });

  it('is idempotent: the same event posted again records nothing', () => {
    const first = registrar(given(...salvo));
    expect(registrar(given(...salvo, ...first))).toEqual([]);
    // Another description, date or code is another event.
    expect(registrar(given(...salvo, ...first), { descricao: 'Saiu para entrega' })).toHaveLength(1);
    expect(registrar(given(...salvo, ...first), { sigla: '' })).toHaveLength(1);
  });

  it('closes a volume with encerraVolume and then refuses new events on it, but not on other volumes', () => {
    const closing = registrar(given(...salvo), { encerraVolume: true, descricao: 'Entregue' });
    const state = given(...salvo, ...closing);
    expect(state.volumes[0].status).toBe('encerrado');
    expect(() => registrar(state, { descricao: 'Outro' })).toThrow(VolumeEncerrado);
    // The closing event itself, posted again, is still the same event.
    expect(registrar(state, { encerraVolume: true, descricao: 'Entregue' })).toEqual([]);
    expect(registrar(state, { codigoRastreio: 'BR-OUTRO' })).toHaveLength(1);
  });

  it('updates the order’s pedidoCanal when an event brings a new one', () => {
    const events = registrar(given(...salvo), { pedidoCanal: 'MKT-2' });
    expect(events.map((event) => event.type)).toEqual(['pedido.salvo', 'rastreio.evento.registrado']);
    expect(events[0].data).toMatchObject({ pedidoCanal: 'MKT-2', atualizadoEm: depois, situacao: 'aprovado' });
    expect(events[1].data).toMatchObject({ pedidoCanal: 'MKT-2' });
  });

  it('needs an identity to create an unknown order', () => {
    expect(() => registrar(pedidoInicial())).toThrow(PedidoNaoEncontrado);
  });
});

describe('pedido: correcting tracking events', () => {
  const registered = registrar(given(...salvo));
  const hash = registered[0].type === 'rastreio.evento.registrado' ? registered[0].data.hash : '';

  it('records a correction with the event’s full corrected values and the same hash', () => {
    const state = given(...salvo, ...registered);
    const events = decidePedido({ acao: 'corrigirEvento', hash, correcao: { descricao: 'Postado na agência', visivelClienteFinal: false } }, state);
    expect(events).toEqual([
      {
        type: 'rastreio.evento.corrigido',
        data: expect.objectContaining({
          idPedido: novo.idPedido,
          chaveEnvio: 'BR123',
          origemChave: 'codigoRastreio',
          hash,
          dataHora: '2026-11-21T08:00:00-03:00',
          descricao: 'Postado na agência',
          sigla: 'PO',
          visivelClienteFinal: false,
        }),
      },
    ]);
    const corrected = given(...salvo, ...registered, ...events);
    expect(corrected.volumes[0].eventos).toEqual([{ hash, dataHora: '2026-11-21T08:00:00-03:00', descricao: 'Postado na agência', sigla: 'PO', visivelClienteFinal: false, origem: 'api' }]);
  });

  it('records nothing when the correction changes nothing', () => {
    expect(decidePedido({ acao: 'corrigirEvento', hash, correcao: { descricao: 'Postado' } }, given(...salvo, ...registered))).toEqual([]);
  });

  it('allows corrections on a closed volume', () => {
    const closing = registrar(given(...salvo), { encerraVolume: true, descricao: 'Entregue' });
    const closingHash = closing[0].type === 'rastreio.evento.registrado' ? closing[0].data.hash : '';
    expect(decidePedido({ acao: 'corrigirEvento', hash: closingHash, correcao: { sigla: 'BDE' } }, given(...salvo, ...closing))).toHaveLength(1);
  });

  it('refuses an unknown hash', () => {
    expect(() => decidePedido({ acao: 'corrigirEvento', hash: 'f'.repeat(40), correcao: { sigla: 'X' } }, given(...salvo, ...registered))).toThrow(EventoNaoEncontrado);
    expect(() => decidePedido({ acao: 'corrigirEvento', hash, correcao: { sigla: 'X' } }, pedidoInicial())).toThrow(EventoNaoEncontrado);
  });
});
