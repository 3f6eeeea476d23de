import type { PedidoEvent, PedidoRef, TipoPedido } from './eventos';
import { evolveVolumes, type Evento, type OrigemChave, type StatusVolume, type Volume } from './volumes';

/**
 * The tracking read model of one order: its identity and its volumes with their events, kept
 * from the order's events. It exists from the order's first tracking event on.
 */
export interface Rastreio {
  pedido: PedidoRef;
  volumes: Volume[];
}

export function evolveRastreio(rastreio: Rastreio | null, event: PedidoEvent): Rastreio | null {
  const { idPedido, numeroPedido, tipoPedido, pedidoCanal, linkRastreio } = event.data;
  const pedido = { idPedido, numeroPedido, tipoPedido, pedidoCanal: pedidoCanal ?? null, linkRastreio };
  if (event.type === 'pedido.salvo') return rastreio && { ...rastreio, pedido };
  return { pedido, volumes: evolveVolumes(rastreio?.volumes ?? [], event) };
}

/** The tracking record GET /pedidoRastreio answers (docs/API.md section 4). */
export interface RegistroRastreio {
  idPedido: string;
  numeroPedido: string;
  pedidoCanal: string | null;
  linkRastreio: string;
  totalVolumes: number;
  volumes: {
    chaveEnvio: string;
    origemChave: OrigemChave;
    codigoRastreio: string | null;
    chaveNFe: string | null;
    rotulo: string | null;
    codigoEnvio: string;
    tipoPedido: TipoPedido;
    status: StatusVolume;
    totalEventos: number;
    eventos: (Evento & { tipo: TipoPedido })[];
  }[];
}

/** Oldest first by the moment of the movement, whatever the registration order; ties keep it. */
function cronologicos(eventos: Evento[]): Evento[] {
  return eventos
    .map((evento, registro) => ({ evento, registro, instante: Date.parse(evento.dataHora) }))
    .sort((a, b) => a.instante - b.instante || a.registro - b.registro)
    .map(({ evento }) => evento);
}

export function registroRastreio(rastreio: Rastreio): RegistroRastreio {
  const { pedido } = rastreio;
  const tipo = pedido.tipoPedido;
  return {
    idPedido: pedido.idPedido,
    numeroPedido: pedido.numeroPedido,
    pedidoCanal: pedido.pedidoCanal ?? null,
    linkRastreio: pedido.linkRastreio,
    totalVolumes: rastreio.volumes.length,
    volumes: rastreio.volumes.map((volume) => ({
      chaveEnvio: volume.chaveEnvio,
      origemChave: volume.origemChave,
      codigoRastreio: volume.codigoRastreio,
      chaveNFe: volume.chaveNFe,
      rotulo: volume.rotulo,
      codigoEnvio: volume.codigoEnvio ?? '',
      tipoPedido: tipo,
      status: volume.status,
      totalEventos: volume.eventos.length,
      eventos: cronologicos(volume.eventos).map((evento) => ({
        hash: evento.hash,
        tipo,
        dataHora: evento.dataHora,
        descricao: evento.descricao,
        sigla: evento.sigla,
        visivelClienteFinal: evento.visivelClienteFinal,
        origem: evento.origem,
      })),
    })),
  };
}

/** What the public tracking page may show: no hashes, no codes of the store, no internal event. */
export interface VistaDoCliente {
  numeroPedido: string;
  volumes: {
    rotulo: string;
    codigoRastreio: string | null;
    status: StatusVolume;
    /** Customer-visible events only, newest first. */
    eventos: { dataHora: string; descricao: string }[];
  }[];
}

export function vistaDoCliente(registro: RegistroRastreio | null, numeroPedido: string): VistaDoCliente {
  return {
    numeroPedido,
    volumes: (registro?.volumes ?? []).map((volume, index) => ({
      rotulo: volume.rotulo || volume.codigoEnvio || `Volume ${index + 1}`,
      codigoRastreio: volume.codigoRastreio,
      status: volume.status,
      // The record lists them oldest first.
      eventos: volume.eventos
        .filter((evento) => evento.visivelClienteFinal)
        .reverse()
        .map(({ dataHora, descricao }) => ({ dataHora, descricao })),
    })),
  };
}
