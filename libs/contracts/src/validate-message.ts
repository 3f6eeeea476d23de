import { plainToInstance } from 'class-transformer';
import { validateSync, ValidationError } from 'class-validator';
import { EventEnvelope, EventEnvelopeMessage } from './envelope';

export type PayloadClass = new () => object;

/** The payload classes of one topic, by event type. */
export type TopicContract = Record<string, PayloadClass>;

export class InvalidMessageError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid message: ${problems.join('; ')}`);
  }
}

function describe(errors: ValidationError[], prefix = ''): string[] {
  return errors.flatMap((error) => {
    const path = `${prefix}${error.property}`;
    const own = Object.values(error.constraints ?? {}).map((message) => `${path}: ${message}`);
    return [...own, ...describe(error.children ?? [], `${path}.`)];
  });
}

const strict = { whitelist: true, forbidNonWhitelisted: true } as const;

/**
 * Validates a consumed message against the envelope and its type's payload class.
 * Unknown types and unknown fields are rejected: a producer ahead of us must bump the version.
 */
export function parseEventMessage<T extends EventEnvelope>(value: unknown, contract: TopicContract): T {
  const envelope = plainToInstance(EventEnvelopeMessage, value);
  const problems = describe(validateSync(envelope, strict));
  if (problems.length > 0) throw new InvalidMessageError(problems);
  const payloadClass = contract[envelope.type];
  if (!payloadClass) throw new InvalidMessageError([`type: unknown event type ${envelope.type}`]);
  const data = plainToInstance(payloadClass, envelope.data);
  const dataProblems = describe(validateSync(data, strict), 'data.');
  if (dataProblems.length > 0) throw new InvalidMessageError(dataProblems);
  return { ...envelope, data } as unknown as T;
}
