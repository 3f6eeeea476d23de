import { keepAnswer } from './idempotency/idempotent-request';
import { ConcurrencyError, type AppendOptions, type EventStore } from './event-store';
import type { AppendedEvent, DomainEvent } from './stored-event';

/**
 * Business logic as pure functions (emmett): `decide(command, state) → events`, `evolve(state, event) → state`.
 * `Event` is the stream's union of domain events.
 */
export interface Decider<Command, State, Event extends DomainEvent> {
  decide(command: Command, state: State): Event[];
  evolve(state: State, event: Event): State;
  initialState(): State;
  /**
   * The event types `command`'s decision depends on, when it depends on fewer than all: its
   * command then reads only those events of the stream and the stream's last one (for the
   * version it appends at), so a command on a long stream does not read it whole (a message
   * on a conversation of a thousand). The state folded from them is right for that decision
   * only. Undefined: the whole stream.
   */
  folds?(command: Command): readonly Event['type'][] | undefined;
}

export interface Decision<State, Event extends DomainEvent = DomainEvent> {
  state: State;
  /** The events the command appended, with their envelopes. */
  events: AppendedEvent<Event>[];
}

const MAX_ATTEMPTS = 20;

/**
 * Reads a stream (the events `decider.folds` names, or all), decides, and appends at the
 * version it read. When another writer got
 * there first, it reads again and decides again, so concurrent commands never lose an event.
 * `newStream`: the stream's id was just minted, so there is nothing to read (one round trip,
 * `EventStore.transaction`); should it exist after all, the append fails and the retry reads it.
 */
export async function handleCommand<Command, State, Event extends StoreEvent, StoreEvent extends DomainEvent>(
  store: EventStore<StoreEvent>,
  decider: Decider<Command, State, Event>,
  streamId: string,
  command: Command,
  { newStream = false, answer, ...options }: Omit<AppendOptions<Event>, 'history'> & {
    newStream?: boolean;
    /** The request's answer, given what the command decided: kept under its Idempotency-Key with the commit (`keepAnswer`). */
    answer?: (decision: Decision<State, Event>) => unknown;
  },
): Promise<Decision<State, Event>> {
  const types = decider.folds?.(command);
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await store.transaction<Decision<State, Event>, Event>(async (manager, read) => {
        const current = read.reduce((state, event) => decider.evolve(state, event), decider.initialState());
        const newEvents = decider.decide(command, current);
        const version = read.at(-1)?.streamVersion ?? 0;
        // Projections are handed the stream only when it was read whole.
        const history = types ? undefined : read;
        const stored = await store.append(manager, streamId, version, newEvents, { ...options, history });
        const state = newEvents.reduce((next, event) => decider.evolve(next, event), current);
        // A command that changed nothing keeps no answer: repeating it changes nothing either.
        if (answer && stored.length > 0) await keepAnswer(manager, answer({ state, events: stored }));
        return { state, events: stored };
      }, streamId, { newStream: newStream && attempt === 1, types });
    } catch (error) {
      if (!(error instanceof ConcurrencyError) || attempt >= MAX_ATTEMPTS) throw error;
      // Jittered backoff spreads racing writers out so each retry is likely to win.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(100, 2 ** attempt)));
    }
  }
}
