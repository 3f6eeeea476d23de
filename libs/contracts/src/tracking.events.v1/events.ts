import { IsBoolean, IsIn, IsISO8601, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import type { TopicContract, TopicMessage } from '../validate-message';

/**
 * Events of `tracking.events.v1`, published by the tracking service. Every event carries the
 * identifiers of its order, so a consumer can keep its own view of orders without reading the
 * tracking service's tables. Internal events (`visivelClienteFinal: false`) are published too:
 * consumers that face customers must filter them out.
 */
export const TRACKING_EVENT_TYPES = {
  pedidoSalvo: 'pedido.salvo',
  eventoRegistrado: 'rastreio.evento.registrado',
  eventoCorrigido: 'rastreio.evento.corrigido',
} as const;

/** An order's type: a shipment to the customer, or a return from them. */
export const TIPOS_PEDIDO = ['envio', 'reversa'] as const;
export type TipoPedido = (typeof TIPOS_PEDIDO)[number];
/** The situations of an order, in the order they usually come. */
export const SITUACOES = ['novo', 'aprovado', 'faturado', 'enviado', 'entregue', 'cancelado'] as const;
export type Situacao = (typeof SITUACOES)[number];
export const ORIGENS_CHAVE = ['codigoRastreio', 'chaveNFe', 'identificador'] as const;

/** What identifies an order, on every tracking event. */
export class PedidoRef {
  @IsString() @MaxLength(32) idPedido: string;
  @IsString() @MaxLength(100) numeroPedido: string;
  @IsIn(TIPOS_PEDIDO) tipoPedido: TipoPedido;
  @IsOptional() @IsString() @MaxLength(100) pedidoCanal?: string | null;
  @IsString() @MaxLength(255) linkRastreio: string;
}

/** An order was created or updated (PUT /pedido, or its first tracking event). */
export class PedidoSalvoData extends PedidoRef {
  @IsIn(SITUACOES) situacao: Situacao;
  @IsISO8601({ strict: true }) atualizadoEm: string;
  /** The sales channel the store gave the order (PUT /pedido's canalVenda), null when it gave none. */
  @IsOptional() @IsString() @MaxLength(50) canalVenda?: string | null;
}

/** A volume's identity, on every event about it. */
export class VolumeRef extends PedidoRef {
  @IsString() @MaxLength(100) chaveEnvio: string;
  @IsIn(ORIGENS_CHAVE) origemChave: (typeof ORIGENS_CHAVE)[number];
  @IsOptional() @IsString() @MaxLength(100) codigoRastreio?: string | null;
  @IsOptional() @Matches(/^\d{44}$/) chaveNFe?: string | null;
  @IsOptional() @IsString() @MaxLength(100) identificador?: string | null;
  @IsOptional() @IsString() @MaxLength(50) codigoEnvio?: string | null;
  @IsOptional() @IsString() @MaxLength(255) rotulo?: string | null;
}

/** A correction: the event `hash` now has these values (all of them, corrected or not). */
export class EventoCorrigidoData extends VolumeRef {
  @Matches(/^[0-9a-f]{40}$/) hash: string;
  @IsString() @MaxLength(40) dataHora: string;
  @IsString() @MaxLength(500) descricao: string;
  @IsString() @MaxLength(10) sigla: string;
  @IsBoolean() visivelClienteFinal: boolean;
}

/** A new event on a volume: its values, who recorded it, and whether it closed the volume. */
export class EventoRegistradoData extends EventoCorrigidoData {
  @IsString() @MaxLength(20) origem: string;
  /** The event closed its volume (status `encerrado`). */
  @IsBoolean() encerraVolume: boolean;
}

export const TRACKING_CONTRACT = {
  [TRACKING_EVENT_TYPES.pedidoSalvo]: { data: PedidoSalvoData, schemaVersions: [1] },
  [TRACKING_EVENT_TYPES.eventoRegistrado]: { data: EventoRegistradoData, schemaVersions: [1] },
  [TRACKING_EVENT_TYPES.eventoCorrigido]: { data: EventoCorrigidoData, schemaVersions: [1] },
} satisfies TopicContract;

export type TrackingMessage = TopicMessage<typeof TRACKING_CONTRACT>;
