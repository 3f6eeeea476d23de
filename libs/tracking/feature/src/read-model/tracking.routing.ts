import {
  messagesOn,
  TOPICS,
  TRACKING_CONTRACT,
  type EventoCorrigidoData,
  type EventoRegistradoData,
  type PedidoSalvoData,
} from '@trilha/contracts';
import type { OutboxRouting } from '@trilha/event-store';
import type { DadosEventoCorrigido, DadosEventoRegistrado, Pedido, PedidoEvent } from '@trilha/tracking-domain';

/**
 * The tracking context's adapter from its domain events (`@trilha/tracking-domain`'s
 * `PedidoEvent`) to the payloads of `tracking.events.v1` (`@trilha/contracts`): the one place
 * that knows both. Each mapping names the contract's fields, so a field the domain gains stays
 * private until it is added here, and a domain type the contract cannot carry fails to compile.
 */

/** `pedido.salvo` carries the contract's fields only: the customer's data and the page token's bookkeeping stay here. */
export function pedidoSalvoV1(pedido: Pedido): PedidoSalvoData {
  const { idPedido, numeroPedido, tipoPedido, pedidoCanal, linkRastreio, situacao, atualizadoEm, canalVenda } = pedido;
  return { idPedido, numeroPedido, tipoPedido, pedidoCanal, linkRastreio, situacao, atualizadoEm, canalVenda };
}

export function eventoCorrigidoV1(evento: DadosEventoCorrigido): EventoCorrigidoData {
  const { idPedido, numeroPedido, tipoPedido, pedidoCanal, linkRastreio, chaveEnvio, origemChave, codigoRastreio, chaveNFe, identificador,
    codigoEnvio, rotulo, hash, dataHora, descricao, sigla, visivelClienteFinal } = evento;
  return { idPedido, numeroPedido, tipoPedido, pedidoCanal, linkRastreio, chaveEnvio, origemChave, codigoRastreio, chaveNFe, identificador,
    codigoEnvio, rotulo, hash, dataHora, descricao, sigla, visivelClienteFinal };
}

export function eventoRegistradoV1(evento: DadosEventoRegistrado): EventoRegistradoData {
  return { ...eventoCorrigidoV1(evento), origem: evento.origem, encerraVolume: evento.encerraVolume };
}

const v1 = messagesOn(TOPICS.tracking, TRACKING_CONTRACT);

/** Every event of an order goes to `tracking.events.v1`. */
export const trackingRouting: OutboxRouting<PedidoEvent> = (event) => {
  switch (event.type) {
    case 'pedido.salvo':
      return [v1(event.type, pedidoSalvoV1(event.data))];
    case 'rastreio.evento.registrado':
      return [v1(event.type, eventoRegistradoV1(event.data))];
    case 'rastreio.evento.corrigido':
      return [v1(event.type, eventoCorrigidoV1(event.data))];
  }
};
