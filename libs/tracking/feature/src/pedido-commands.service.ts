import { ConflictException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { LRUCache } from 'lru-cache';
import type { DataSource } from 'typeorm';
import { EventStore, handleCommand, pgPool, type AppendedEvent } from '@trilha/event-store';
import { InvalidInputException } from '@trilha/http';
import {
  ChaveEnvioAusente,
  EventoNaoEncontrado,
  PedidoNaoEncontrado,
  pedidoDecider,
  pedidoStreamId,
  VolumeEncerrado,
  type NovoPedido,
  type PedidoCommand,
  type PedidoEvent,
  type PedidoState,
  type TipoPedido,
} from '@trilha/tracking-domain';
import { novoIdCompacto } from '@trilha/ids';
import { novoTokenRastreio } from './ids';
import { TRACKING_OPTIONS, type TrackingOptions } from './tracking.options';

export interface PedidoDecision {
  state: PedidoState;
  events: AppendedEvent<PedidoEvent>[];
}

/** Raised by the read model's unique key when another request created the same order first. */
const CHAVE_DO_PEDIDO = 'pedidos_chave_unica';

/** Runs order commands against the order's stream, turning domain refusals into HTTP answers. */
@Injectable()
export class PedidoCommands {
  /**
   * Order ids by store, numeroPedido and tipoPedido, as commands found or created them. An
   * order keeps its key and is never deleted, so an entry never goes stale; a hit spares the
   * command a round trip to PostgreSQL.
   */
  private readonly idsPorChave = new LRUCache<string, string>({ max: 100_000 });

  constructor(
    private readonly store: EventStore<PedidoEvent>,
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(TRACKING_OPTIONS) private readonly options: TrackingOptions,
  ) {}

  /**
   * Runs a command on the store's order with this numeroPedido + tipoPedido, creating it when
   * there is none. Two requests that both see no order each try to create one; the read
   * model's unique key lets only one commit, and the other runs again on the order that won.
   * `answer`: the request's answer given the decision, kept under its Idempotency-Key (`handleCommand`).
   */
  async naChave(
    idLoja: number,
    numeroPedido: string,
    tipoPedido: TipoPedido,
    command: (novo?: NovoPedido) => PedidoCommand,
    answer?: (decision: PedidoDecision) => unknown,
  ): Promise<PedidoDecision & { criado: boolean }> {
    const chave = JSON.stringify([idLoja, numeroPedido, tipoPedido]);
    for (let attempt = 1; ; attempt += 1) {
      const idPedido = this.idsPorChave.get(chave) ?? (await this.idPedidoNaChave(idLoja, numeroPedido, tipoPedido));
      const novo = idPedido ? undefined : this.novoPedido();
      try {
        const decision = await this.executar(idLoja, idPedido ?? novo!.idPedido, command(novo), answer);
        this.idsPorChave.set(chave, decision.state.pedido!.idPedido);
        return { ...decision, criado: novo !== undefined };
      } catch (error) {
        const lostTheRace = !idPedido && (error as { constraint?: string }).constraint === CHAVE_DO_PEDIDO;
        if (!lostTheRace || attempt >= 3) throw error;
      }
    }
  }

  /** A prepared statement each connection plans once: with the table's five indexes, planning costs PostgreSQL twice the lookup. */
  private async idPedidoNaChave(idLoja: number, numeroPedido: string, tipoPedido: TipoPedido): Promise<string | undefined> {
    const { rows } = await pgPool(this.dataSource).query<{ id_pedido: string }>({
      name: 'tracking_id_pedido_na_chave',
      text: `SELECT id_pedido FROM pedidos WHERE id_loja = $1 AND numero_pedido = $2 AND tipo_pedido = $3`,
      values: [idLoja, numeroPedido, tipoPedido],
    });
    return rows[0]?.id_pedido;
  }

  async executar(idLoja: number, idPedido: string, command: PedidoCommand, answer?: (decision: PedidoDecision) => unknown): Promise<PedidoDecision> {
    try {
      return await handleCommand(this.store, pedidoDecider, pedidoStreamId(idPedido), command, { idLoja, answer });
    } catch (error) {
      if (error instanceof PedidoNaoEncontrado || error instanceof EventoNaoEncontrado) throw new NotFoundException(error.message);
      if (error instanceof VolumeEncerrado) throw new ConflictException(error.message);
      if (error instanceof ChaveEnvioAusente) throw new InvalidInputException([{ campo: 'codigoRastreio', mensagem: error.message }]);
      throw error;
    }
  }

  private novoPedido(): NovoPedido {
    const tokenRastreio = novoTokenRastreio();
    return { idPedido: novoIdCompacto(), tokenRastreio, linkRastreio: `${this.options.publicBaseUrl}/rastreio/${tokenRastreio}` };
  }
}
