import { ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { EventStore, handleCommand, type AppendedEvent } from '@trilha/event-store';
import {
  AtendimentoEncerrado,
  AtendimentoJaExiste,
  AtendimentoNaoEncontrado,
  atendimentoDecider,
  atendimentoStreamId,
  type AtendimentoCommand,
  type AtendimentoEvent,
  type AtendimentoServiceEvent,
} from '@trilha/atendimento-domain';

/**
 * Runs a command on a conversation's stream; the domain's refusals become 404 and 409 problems.
 * `abrir` comes with an id just minted (AbrirAtendimentoHandler): its stream is new. `answer`:
 * the request's answer given the events, kept under its Idempotency-Key (`handleCommand`).
 */
@Injectable()
export class AtendimentoCommands {
  constructor(private readonly store: EventStore<AtendimentoServiceEvent>) {}

  async executar(
    idAtendimento: string,
    idLoja: number,
    command: AtendimentoCommand,
    answer?: (events: AppendedEvent<AtendimentoEvent>[]) => unknown,
  ): Promise<AppendedEvent<AtendimentoEvent>[]> {
    try {
      const decision = await handleCommand(this.store, atendimentoDecider, atendimentoStreamId(idAtendimento), command, {
        idLoja,
        newStream: command.acao === 'abrir',
        answer: answer && (({ events }) => answer(events)),
      });
      return decision.events;
    } catch (error) {
      if (error instanceof AtendimentoNaoEncontrado) throw new NotFoundException(error.message);
      if (error instanceof AtendimentoEncerrado || error instanceof AtendimentoJaExiste) throw new ConflictException(error.message);
      throw error;
    }
  }
}
