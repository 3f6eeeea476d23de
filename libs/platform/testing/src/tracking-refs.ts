import { randomBytes } from 'node:crypto';

/** An order's reference as tracking.events.v1 carries it (PedidoRef). */
export interface TestPedidoRef {
  idPedido: string;
  numeroPedido: string;
  tipoPedido: 'envio' | 'reversa';
  pedidoCanal: string | null;
  linkRastreio: string;
}

/** A PedidoRef of a new order: a fresh idPedido and tracking link; an 'envio' with no channel order unless told. */
export function pedidoRef(numeroPedido: string, campos: { tipoPedido?: 'envio' | 'reversa'; pedidoCanal?: string | null } = {}): TestPedidoRef {
  return {
    idPedido: randomBytes(16).toString('hex'), numeroPedido, tipoPedido: campos.tipoPedido ?? 'envio', pedidoCanal: campos.pedidoCanal ?? null,
    linkRastreio: `https://localhost/rastreio/${randomBytes(12).toString('base64url')}`,
  };
}

/** The VolumeRef (tracking.events.v1) of the order's volume keyed by its tracking code, with no other key and the label given (none unless told). */
export function volumeRef(pedido: TestPedidoRef, codigoRastreio: string, rotulo: string | null = null) {
  const { idPedido, numeroPedido, tipoPedido, pedidoCanal, linkRastreio } = pedido;
  return {
    idPedido, numeroPedido, tipoPedido, pedidoCanal, linkRastreio,
    chaveEnvio: codigoRastreio, origemChave: 'codigoRastreio', codigoRastreio, chaveNFe: null, identificador: null, codigoEnvio: null, rotulo,
  };
}
