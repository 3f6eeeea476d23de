import { ATENDIMENTO_CONTRACT, schemaVersionWritten, TOPICS } from '@trilha/contracts';
import type { OutboxRouting } from '@trilha/event-store';
import { ATENDIMENTO_EVENTOS, dadosPublicos, type AtendimentoEvent } from '@trilha/atendimento-domain';

const PUBLICOS: readonly string[] = Object.values(ATENDIMENTO_EVENTOS);

/**
 * Conversation events go to atendimento.events.v1 with exactly docs/API.md section 7's data (keyed by store
 * by the outbox, so one conversation's events stay in order); agent events stay private.
 */
export const atendimentoRouting: OutboxRouting = (event) =>
  PUBLICOS.includes(event.type)
    ? [{ topic: TOPICS.atendimento, schemaVersion: schemaVersionWritten(ATENDIMENTO_CONTRACT, event.type), data: dadosPublicos(event as unknown as AtendimentoEvent) }]
    : [];
