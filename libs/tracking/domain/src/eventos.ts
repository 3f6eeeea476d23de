/**
 * The tracking context's own events: what the order stream (`pedido-<idPedido>`) stores and
 * its deciders, projections and read models fold. They are plain data, owned here; what
 * `tracking.events.v1` publishes of them is the routing adapter's mapping
 * (`libs/tracking/feature/src/read-model/tracking.routing.ts`). Stored events keep this shape
 * for ever: a stream written long ago is folded with these types, so a field is only ever added
 * as optional (or with a default where it is read).
 */

/** An order's type: a shipment to the customer, or a return from them. */
export const TIPOS_PEDIDO = ['envio', 'reversa'] as const;
export type TipoPedido = (typeof TIPOS_PEDIDO)[number];
/** The situations of an order, in the order they usually come. */
export const SITUACOES = ['novo', 'aprovado', 'faturado', 'enviado', 'entregue', 'cancelado'] as const;
export type Situacao = (typeof SITUACOES)[number];
/** Which of an event's keys identifies its volume (the first present, in this order). */
export const ORIGENS_CHAVE = ['codigoRastreio', 'chaveNFe', 'identificador'] as const;
export type OrigemChave = (typeof ORIGENS_CHAVE)[number];

export interface Cliente {
  nome: string;
  email?: string;
  telefone?: string;
  documento?: string;
}

export interface Endereco {
  logradouro: string;
  numero: string;
  complemento?: string;
  bairro: string;
  cidade: string;
  uf: string;
  cep: string;
}

export interface Item {
  sku: string;
  descricao: string;
  quantidade: number;
  valorUnitario: number;
}

/** What the store states about an order with PUT /pedido: everything but ids and timestamps. */
export interface DadosPedido {
  numeroPedido: string;
  tipoPedido: TipoPedido;
  pedidoCanal: string | null;
  canalVenda: string | null;
  situacao: Situacao;
  /** Null for an order created by its first tracking event, until a PUT /pedido completes it. */
  cliente: Cliente | null;
  enderecoEntrega: Endereco | null;
  itens: Item[];
  valorTotal: number;
  dataPedido: string;
}

export interface Pedido extends DadosPedido {
  idPedido: string;
  linkRastreio: string;
  /** The public page's token (part of linkRastreio): the key of the token → order lookup. */
  tokenRastreio: string;
  criadoEm: string;
  atualizadoEm: string;
}

/** What identifies an order, on every tracking event. */
export interface PedidoRef {
  idPedido: string;
  numeroPedido: string;
  tipoPedido: TipoPedido;
  pedidoCanal?: string | null;
  linkRastreio: string;
}

/** A volume's identity, on every event about it. */
export interface VolumeRef extends PedidoRef {
  chaveEnvio: string;
  origemChave: OrigemChave;
  codigoRastreio?: string | null;
  chaveNFe?: string | null;
  identificador?: string | null;
  codigoEnvio?: string | null;
  rotulo?: string | null;
}

/** A correction: the event `hash` now has these values (all of them, corrected or not). */
export interface DadosEventoCorrigido extends VolumeRef {
  hash: string;
  dataHora: string;
  descricao: string;
  sigla: string;
  visivelClienteFinal: boolean;
}

/** A new event on a volume: its values, who recorded it, and whether it closed the volume. */
export interface DadosEventoRegistrado extends DadosEventoCorrigido {
  origem: string;
  /** The event closed its volume (status `encerrado`). */
  encerraVolume: boolean;
}

/** The order was created or updated: the whole order, the customer's data included. */
export type PedidoSalvo = { type: 'pedido.salvo'; data: Pedido };
/** A tracking event was recorded on a volume. */
export type EventoRegistrado = { type: 'rastreio.evento.registrado'; data: DadosEventoRegistrado };
/** A recorded tracking event was corrected. */
export type EventoCorrigido = { type: 'rastreio.evento.corrigido'; data: DadosEventoCorrigido };

/** The events of an order's stream. */
export type PedidoEvent = PedidoSalvo | EventoRegistrado | EventoCorrigido;
/** The events about a volume's tracking. */
export type EventoDeRastreio = EventoRegistrado | EventoCorrigido;
