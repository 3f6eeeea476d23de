import type { Pedido, PedidoEvent } from '@trilha/tracking-domain';
import { trackingRouting } from './tracking.routing';

const envelope = { id: 'e1', schemaVersion: 1, idLoja: 7, correlationId: 'c', causationId: null, traceparent: null, streamId: 'pedido-p1', streamVersion: 1 };
const routed = (event: PedidoEvent) => trackingRouting({ ...envelope, ...event });

const pedido: Pedido = {
  idPedido: 'p1', numeroPedido: 'P-1', tipoPedido: 'envio', pedidoCanal: 'MKT-1', canalVenda: 'mercadolivre', situacao: 'aprovado',
  cliente: { nome: 'Ana', email: 'ana@example.com' }, enderecoEntrega: null, itens: [], valorTotal: 10, dataPedido: '2026-11-21T10:00:00Z',
  linkRastreio: 'https://t/rastreio/tok', tokenRastreio: 'tok', criadoEm: '2026-11-21T10:00:00Z', atualizadoEm: '2026-11-21T10:00:00Z',
};

describe('trackingRouting', () => {
  it('publishes pedido.salvo to tracking.events.v1 with the contract’s fields only, the sales channel among them', () => {
    expect(routed({ type: 'pedido.salvo', data: pedido })).toEqual([
      {
        topic: 'tracking.events.v1',
        schemaVersion: 1,
        data: {
          idPedido: 'p1', numeroPedido: 'P-1', tipoPedido: 'envio', pedidoCanal: 'MKT-1', linkRastreio: 'https://t/rastreio/tok',
          situacao: 'aprovado', atualizadoEm: '2026-11-21T10:00:00Z', canalVenda: 'mercadolivre',
        },
      },
    ]);
  });

  it('publishes a tracking event with every field it stores', () => {
    const data = {
      idPedido: 'p1', numeroPedido: 'P-1', tipoPedido: 'envio' as const, pedidoCanal: null, linkRastreio: 'https://t/rastreio/tok',
      chaveEnvio: 'BR1', origemChave: 'codigoRastreio' as const, codigoRastreio: 'BR1', chaveNFe: null, identificador: null, codigoEnvio: null,
      rotulo: null, hash: 'a'.repeat(40), dataHora: '2026-11-21T10:00:00-03:00', descricao: 'Postado', sigla: '', visivelClienteFinal: true,
    };
    expect(routed({ type: 'rastreio.evento.registrado', data: { ...data, origem: 'api', encerraVolume: false } })[0].data).toEqual({ ...data, origem: 'api', encerraVolume: false });
    expect(routed({ type: 'rastreio.evento.corrigido', data })[0].data).toEqual(data);
  });
});
