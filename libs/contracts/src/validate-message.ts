import { plainToInstance } from 'class-transformer';
import { validateSync, ValidationError } from 'class-validator';
import { compileReader } from './compiled-reader';
import { EventEnvelope, EventEnvelopeMessage } from './envelope';

export type PayloadClass = new () => object;

/**
 * One event type of a topic: the class its payload is validated against, and every
 * `schemaVersion` of it a consumer accepts, oldest first. Within a topic version a payload only
 * gains optional fields, so the current class reads every listed version. The last one is what
 * producers write; a new version is listed here (and deployed to every consumer) before any
 * producer writes it. A field added as optional needs no new version: readers ignore what
 * they do not know.
 */
export interface EventContract {
  data: PayloadClass;
  schemaVersions: readonly number[];
}

/** The event types of one topic. */
export type TopicContract = Record<string, EventContract>;

/**
 * The messages of a topic, derived from its contract: for each event type, the envelope with
 * that `type` and its payload class as `data`. A union discriminated by `type`.
 */
export type TopicMessage<C extends TopicContract> = { [T in keyof C & string]: EventEnvelope<InstanceType<C[T]['data']>, T> }[keyof C & string];

/** The `schemaVersion` producers write for an event type: the newest its contract lists. */
export function schemaVersionWritten(contract: TopicContract, type: string): number {
  const versions = contract[type]?.schemaVersions;
  if (!versions) throw new Error(`no contract for event type ${type}`);
  return versions[versions.length - 1];
}

/**
 * The messages a producer writes on `topic` for the event types of `contract`: each in the
 * version its producers write (`schemaVersionWritten`). A routing adapter calls it once per
 * topic version it publishes to.
 */
export function messagesOn<C extends TopicContract>(topic: string, contract: C): (type: keyof C & string, data: object) => { topic: string; schemaVersion: number; data: object } {
  return (type, data) => ({ topic, schemaVersion: schemaVersionWritten(contract, type), data });
}

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

/**
 * A tolerant reader (docs/ARCHITECTURE.md, "Events"): what the classes declare is validated, and
 * every other field is stripped, so a producer that adds a field is read by consumers that do
 * not know it yet. The HTTP edge stays strict (`forbidNonWhitelisted` in `libs/platform/http`).
 */
const tolerant = { whitelist: true, forbidNonWhitelisted: false } as const;

/**
 * Validates a consumed message against the envelope and its type's contract, and returns it
 * without the fields the contract does not declare. Unknown types, `schemaVersion`s the
 * contract does not list and invalid values of declared fields are rejected. A message the
 * compiled readers accept as it is (nearly all) is read by them; any other is read by
 * class-validator, whose verdict and problems stand (`compileReader`).
 */
export function parseEventMessage<T extends EventEnvelope>(value: unknown, contract: TopicContract): T {
  return (readCompiled(value, contract) ?? readWithClassValidator(value, contract)) as T;
}

const readEnvelope = compileReader(EventEnvelopeMessage);

/** The contract of an event type, if the topic has it (not a name every object has, such as `constructor`). */
const contractOf = (contract: TopicContract, type: string): EventContract | undefined => (Object.hasOwn(contract, type) ? contract[type] : undefined);

function readCompiled(value: unknown, contract: TopicContract): EventEnvelope | undefined {
  const envelope = readEnvelope(value) as EventEnvelope | undefined;
  if (!envelope) return undefined;
  const eventContract = contractOf(contract, envelope.type);
  if (!eventContract?.schemaVersions.includes(envelope.schemaVersion)) return undefined;
  const data = compileReader(eventContract.data)(envelope.data);
  return data && { ...envelope, data };
}

function readWithClassValidator(value: unknown, contract: TopicContract): EventEnvelope {
  const envelope = plainToInstance(EventEnvelopeMessage, value);
  const problems = describe(validateSync(envelope, tolerant));
  if (problems.length > 0) throw new InvalidMessageError(problems);
  const eventContract = contractOf(contract, envelope.type);
  if (!eventContract) throw new InvalidMessageError([`type: unknown event type ${envelope.type}`]);
  if (!eventContract.schemaVersions.includes(envelope.schemaVersion)) {
    throw new InvalidMessageError([`schemaVersion: ${envelope.type} is read in versions ${eventContract.schemaVersions.join(', ')}, not ${envelope.schemaVersion}`]);
  }
  const data = plainToInstance(eventContract.data, envelope.data);
  const dataProblems = describe(validateSync(data, tolerant), 'data.');
  if (dataProblems.length > 0) throw new InvalidMessageError(dataProblems);
  return { ...envelope, data };
}
