import { Injectable } from '@nestjs/common';
import { EventStore, handleCommand } from '@trilha/event-store';
import { agenteDecider, agenteStreamId, assistenteDeRastreio, FaqIndex, type Agente, type AtendimentoServiceEvent } from '@trilha/atendimento-domain';
import { IndicesFaq } from './indices-faq';

/** Creates agents through their streams: the ones a store creates and each store's built-in one. */
@Injectable()
export class AgenteCommands {
  constructor(
    private readonly store: EventStore<AtendimentoServiceEvent>,
    private readonly indices: IndicesFaq,
  ) {}

  /**
   * Creates the agent and, on this replica, its FAQ index, so its first conversation does not
   * pay for indexing. `answer`: the request's, kept under its Idempotency-Key (`handleCommand`).
   */
  async criar(agente: Agente, answer?: () => unknown): Promise<void> {
    const { events } = await handleCommand(this.store, agenteDecider, agenteStreamId(agente.idAgente), { acao: 'criar', agente }, { idLoja: agente.idLoja, answer });
    if (events.length > 0) this.indices.guardar(agente.idAgente, { versao: events[events.length - 1].streamVersion, faq: new FaqIndex(agente.faq) });
  }

  /**
   * Every store has its built-in agent from the moment it exists: the store's `loja.criada`
   * creates it, and so does the store's first request that finds it missing (the gateway
   * forwards only requests of stores that exist), whichever comes first; the second changes
   * nothing. Then reads again with `ler`.
   */
  async criarAssistenteDeRastreioELer<T>(idLoja: number, ler: () => Promise<T>): Promise<T> {
    await this.criar(assistenteDeRastreio(idLoja, new Date().toISOString()));
    return ler();
  }
}
