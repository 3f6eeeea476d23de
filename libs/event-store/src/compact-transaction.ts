import { AsyncLocalStorage } from 'node:async_hooks';
import { DatabaseError, escapeIdentifier, type PoolClient, type QueryResult } from 'pg';
import type { DataSource, EntityManager, QueryRunner } from 'typeorm';

type Scalar = string | number | boolean | Date | null;
/** A parameter written into a statement as a literal (see `inlineParameters`). */
export type Literal = Scalar | undefined | readonly Scalar[];

function finite(value: number): string {
  if (!Number.isFinite(value)) throw new TypeError(`cannot write ${value} into a statement`);
  return String(value);
}

/** An array element in the array's text form: NULL bare, anything else quoted. */
function arrayElement(item: Scalar): string {
  if (item === null) return 'NULL';
  const text = item instanceof Date ? item.toISOString() : typeof item === 'number' ? finite(item) : String(item);
  return `"${text.replace(/[\\"]/g, '\\$&')}"`;
}

/**
 * A text as a quoted literal, as pg's `escapeLiteral` writes it (each quote and backslash doubled,
 * `E'…'` when a backslash is there), in one pass of the regular expression engine: pg's adds one
 * character at a time, about 150 µs for a tracking record's 4 kB document.
 */
export function quoted(text: string): string {
  const escaped = `'${text.replace(/['\\]/g, '$&$&')}'`;
  return text.includes('\\') ? ` E${escaped}` : escaped;
}

function literal(value: Literal): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (typeof value === 'number') return finite(value);
  if (value instanceof Date) return quoted(value.toISOString());
  if (typeof value === 'string') return quoted(value);
  // An array's text form, as pg sends a parameter: {"a",NULL,"b"}.
  if (Array.isArray(value)) return quoted(`{${value.map(arrayElement).join(',')}}`);
  throw new TypeError(`cannot write a ${typeof value} into a statement`);
}

/**
 * The statement with its `$n` parameters written in as literals, for PostgreSQL's simple
 * protocol. For our own statements only: their text has no `$` but the parameters'. A quoted
 * literal takes its type from where it stands, as an untyped parameter does.
 */
export function inlineParameters(sql: string, params: readonly Literal[]): string {
  return sql.replace(/\$(\d+)/g, (_, n: string) => {
    if (Number(n) > params.length) throw new RangeError(`statement names $${n}, but ${params.length} parameters were given`);
    return literal(params[Number(n) - 1]);
  });
}

/**
 * A statement each connection plans once (SQL `PREPARE`), then runs with `EXECUTE` in the same
 * simple-protocol message as the others: for the long statements written at every commit, whose
 * planning costs PostgreSQL more than running them. Where PostgreSQL cannot infer a
 * parameter's type from where it stands (a SELECT list), the text casts it.
 */
export interface PreparedStatement {
  /** Unique in the process: the name the connections know the statement by. */
  name: string;
  text: string;
}

/** A statement with its parameters, as a `compactTransaction` sends it. */
export interface Statement {
  statement: string | PreparedStatement;
  params: readonly Literal[];
}

/** A statement held for the COMMIT, and what reads its rows once they are committed. */
interface HeldWrite extends Statement {
  committed?: (rows: Record<string, unknown>[]) => void;
}

/** The statement with its parameters, for a message on any connection. */
const inlined = ({ statement, params }: Statement): string => inlineParameters(typeof statement === 'string' ? statement : statement.text, params);

/** Statements `holdingWritesAtCommit` holds for its caller to send, by the manager they were written through. */
const writesAtCommit = new WeakMap<EntityManager, HeldWrite[]>();

/**
 * Runs a write whose result nothing reads before the commit: inside a `compactTransaction` (a
 * command's `EventStore.transaction`, a consumer's inbox transaction) it is sent with the
 * COMMIT, in the same message (one round trip fewer per write), and in an idempotent
 * message handler with the other messages' writes (`MessageConsumer`); elsewhere (a rebuild,
 * a plain transaction) at once. Its error, if any, then fails the commit, which rolls back.
 * One statement per call.
 *
 * `committed`, only inside a `compactTransaction`, gets the statement's rows once the COMMIT
 * has succeeded (never if it failed): what the write decided, for work that must not start
 * before it is durable.
 */
export async function writeAtCommit(
  manager: EntityManager,
  statement: string | PreparedStatement,
  params: readonly Literal[],
  committed?: HeldWrite['committed'],
): Promise<void> {
  const pending = writesAtCommit.get(manager);
  if (committed && !compactTransactions.has(manager)) throw new Error('a write read back at its commit needs a compactTransaction');
  if (pending) pending.push({ statement, params, committed });
  else await manager.query(typeof statement === 'string' ? statement : statement.text, params as unknown[]);
}

/**
 * Runs `work`, holding the statements it writes through `manager` with `writeAtCommit`, and
 * returns them for the caller to send (with its COMMIT, or with other messages' writes).
 */
export async function holdingWritesAtCommit<T>(manager: EntityManager, work: () => Promise<T>): Promise<{ value: T; writes: HeldWrite[] }> {
  const writes: HeldWrite[] = [];
  writesAtCommit.set(manager, writes);
  try {
    return { value: await work(), writes };
  } finally {
    writesAtCommit.delete(manager);
  }
}

/** The managers of the `compactTransaction`s running now: where a held write can be read back at its commit. */
const compactTransactions = new WeakSet<EntityManager>();

/** The `PreparedStatement`s each connection has prepared. */
const preparedOn = new WeakMap<PoolClient, Set<string>>();

/**
 * One message of `statements` between `first` and `last`, for a connection that has `prepared`
 * these: a prepared statement as `EXECUTE`, preceded by its `PREPARE` where the connection lacks
 * it. `preparing`: what the message prepares; `results`, where the statements' results start in
 * its answer.
 */
function message(statements: Statement[], prepared: Set<string>, first: string[], last: string[]): { text: string; preparing: PreparedStatement[]; results: number } {
  const preparing = new Map<string, PreparedStatement>();
  const texts = statements.map((statement) => {
    if (typeof statement.statement === 'string') return inlined(statement);
    const { name } = statement.statement;
    if (!prepared.has(name)) preparing.set(name, statement.statement);
    return `EXECUTE ${escapeIdentifier(name)}${statement.params.length === 0 ? '' : `(${statement.params.map(literal).join(', ')})`}`;
  });
  const before = [...first, ...[...preparing.values()].map(({ name, text }) => `PREPARE ${escapeIdentifier(name)} AS ${text}`)];
  return { text: [...before, ...texts, ...last].join(';\n'), preparing: [...preparing.values()], results: before.length };
}

/** What a `compactTransaction` reads as it begins. */
export type Opening =
  /** Statements sent with BEGIN: `work` gets the last one's result. */
  | Statement[]
  /** Nothing: BEGIN alone. */
  | undefined
  /** Nothing, and `work` reads nothing either: BEGIN travels with the COMMIT, one round trip in all. */
  | null;

/** A pool connection of a transaction, with the prepared statements it knows. */
class Session {
  /** What the message in flight prepares. */
  private preparing: PreparedStatement[] = [];

  private constructor(
    private readonly runner: QueryRunner,
    private readonly connection: PoolClient,
    private readonly prepared: Set<string>,
  ) {}

  static async open(runner: QueryRunner): Promise<Session> {
    try {
      const connection = (await runner.connect()) as PoolClient;
      const prepared = preparedOn.get(connection) ?? new Set<string>();
      preparedOn.set(connection, prepared);
      return new Session(runner, connection, prepared);
    } catch (error) {
      await runner.release();
      throw error;
    }
  }

  /** Sends one message on the connection; answers its statements' results. */
  async send(statements: Statement[], first: string[], last: string[]): Promise<QueryResult[]> {
    const sent = message(statements, this.prepared, first, last);
    this.preparing = sent.preparing;
    // pg answers a message of several statements with a result each, one alone with its result.
    const results = ([await this.connection.query(sent.text)].flat() as QueryResult[]).slice(sent.results);
    for (const { name } of this.preparing) this.prepared.add(name);
    this.preparing = [];
    return results;
  }

  /** Rolls back after a failed message, and learns which of its statements the connection prepared. */
  async failed(): Promise<void> {
    await this.connection.query('ROLLBACK').catch(() => undefined);
    if (this.preparing.length > 0) await learnPrepared(this.connection, this.prepared, this.preparing);
  }

  release(): Promise<void> {
    return this.runner.release();
  }
}

/** What a transaction's `work` does, given its manager and what its opening read. */
type Work<T> = (manager: EntityManager, opened: QueryResult | undefined) => Promise<T>;

/**
 * A transaction in two round trips: BEGIN travels with the `opening`, and the writes `work`
 * makes with `writeAtCommit` travel with the COMMIT (with a `null` opening, one round trip).
 * Each round trip is a loopback wake-up of both sides, the main cost of a short transaction here
 * (docs/BENCHMARKS.md). An error rolls it back and is thrown. Once the COMMIT succeeded, each
 * write's `committed` gets its rows.
 *
 * `together`: the transaction shares its messages with the others of its turn (`inTurn`). Its
 * `work` then reads nothing but what the opening read (a `null` or a statements opening), and
 * runs again, alone, if PostgreSQL refuses the shared transaction.
 */
export function compactTransaction<T>(dataSource: DataSource, opening: Opening, work: Work<T>, { together = false } = {}): Promise<T> {
  return together && opening !== undefined ? inTurn(dataSource, opening, work) : alone(dataSource, opening, work);
}

/** A manager whose writes `writeAtCommit` holds, and which reads nothing itself. */
function managerReadingNothing(dataSource: DataSource): EntityManager {
  const runner = dataSource.createQueryRunner();
  runner.query = () => Promise.reject(new Error('this transaction reads nothing but its opening: its writes travel with its COMMIT'));
  return runner.manager;
}

/** Runs `work` with `manager`, holding its writes for the COMMIT. */
function holding<T>(manager: EntityManager, work: Work<T>, opened: QueryResult | undefined): Promise<{ value: T; writes: HeldWrite[] }> {
  compactTransactions.add(manager);
  return holdingWritesAtCommit(manager, () => work(manager, opened)).finally(() => compactTransactions.delete(manager));
}

/** One transaction on a connection of its own. */
async function alone<T>(dataSource: DataSource, opening: Opening, work: Work<T>): Promise<T> {
  if (opening === null) {
    const { value, writes } = await holding(managerReadingNothing(dataSource), work, undefined);
    if (writes.length > 0) committed(writes, await inOneMessage(dataSource, writes));
    return value;
  }
  const runner = dataSource.createQueryRunner();
  const session = await Session.open(runner);
  try {
    const { value, writes } = await holding(runner.manager, work, (await session.send(opening ?? [], ['BEGIN'], [])).at(-1));
    committed(writes, await session.send(writes, [], ['COMMIT']));
    return value;
  } catch (error) {
    await session.failed();
    throw error;
  } finally {
    await session.release();
  }
}

/** Hands each write's rows to its `committed`, once the COMMIT succeeded. */
function committed(writes: HeldWrite[], results: QueryResult[]): void {
  writes.forEach((write, index) => write.committed?.(results[index].rows));
}

/**
 * The writes of one transaction in one message, BEGIN to COMMIT, on a connection of its own: a
 * `PreparedStatement` runs as `EXECUTE`, prepared on the connection the first time it goes there.
 */
export async function inOneMessage(dataSource: DataSource, writes: Statement[]): Promise<QueryResult[]> {
  const session = await Session.open(dataSource.createQueryRunner());
  try {
    return await session.send(writes, ['BEGIN'], ['COMMIT']);
  } catch (error) {
    await session.failed();
    throw error;
  } finally {
    await session.release();
  }
}

/** A transaction waiting for the messages it shares with the others of its turn. */
interface Member {
  opening: Statement[] | null;
  /** Bound to its caller's context (span, correlation id, store). */
  work: Work<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** The transactions of each data source waiting for this turn's messages. */
const turns = new WeakMap<DataSource, Member[]>();

/**
 * Runs a transaction with the others that begin in the same turn of the event loop (under load,
 * the requests read from the sockets together): BEGIN travels with all their openings, their
 * works run in turn, and all their writes travel with one COMMIT; one message in all when none
 * reads. Two round trips and one commit for the turn, instead of as many as there are
 * transactions; alone at any other time. A work that throws fails only its own transaction,
 * whose writes are dropped. If PostgreSQL refuses the shared transaction, each of the others
 * runs again alone, so a transaction that cannot commit fails only itself; if its COMMIT goes
 * unanswered (the connection lost), each fails, as it would alone.
 */
function inTurn<T>(dataSource: DataSource, opening: Statement[] | null, work: Work<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const turn = turns.get(dataSource) ?? [];
    turns.set(dataSource, turn);
    const member: Member = { opening, work: AsyncLocalStorage.bind(work), resolve: resolve as (value: unknown) => void, reject };
    if (turn.push(member) === 1) {
      setImmediate(() => {
        turns.delete(dataSource);
        void runTurn(dataSource, turn);
      });
    }
  });
}

/** A member whose work ran: its value and the writes it holds for the shared COMMIT. */
interface Ran {
  member: Member;
  value: unknown;
  writes: HeldWrite[];
}

async function runTurn(dataSource: DataSource, members: Member[]): Promise<void> {
  const runAlone = ({ opening, work, resolve, reject }: Member) => alone(dataSource, opening, work).then(resolve, reject);
  if (members.length === 1) return runAlone(members[0]);
  const settled = new Set<Member>();
  const session = await Session.open(dataSource.createQueryRunner()).catch(() => undefined);
  const shared = session && (await inOneTransaction(session, dataSource, members, settled).finally(() => session.release()));
  if (!shared) {
    await Promise.all(members.filter((member) => !settled.has(member)).map(runAlone));
    return;
  }
  let start = 0;
  for (const { member, value, writes } of shared.ran) {
    const own = shared.results.slice(start, (start += writes.length));
    try {
      committed(writes, own);
      member.resolve(value);
    } catch (error) {
      member.reject(error);
    }
  }
}

/**
 * The turn's transaction on `session`: the members whose work ran, with the results of their
 * writes, once it committed; nothing if it failed. The members it fails for good (their work
 * threw, or their COMMIT went unanswered) it rejects and adds to `settled`.
 */
async function inOneTransaction(session: Session, dataSource: DataSource, members: Member[], settled: Set<Member>): Promise<{ ran: Ran[]; results: QueryResult[] } | undefined> {
  const ran: Ran[] = [];
  const fail = (member: Member, error: unknown) => {
    settled.add(member);
    member.reject(error);
  };
  let committing = false;
  try {
    const reads = members.some(({ opening }) => opening !== null);
    const opened = reads ? await session.send(members.flatMap(({ opening }) => opening ?? []), ['BEGIN'], []) : [];
    let position = 0;
    for (const member of members) {
      const read = member.opening === null ? undefined : opened.slice(position, (position += member.opening.length)).at(-1);
      await holding(managerReadingNothing(dataSource), member.work, read).then((held) => ran.push({ member, ...held }), (error) => fail(member, error));
    }
    committing = true;
    return { ran, results: await session.send(ran.flatMap(({ writes }) => writes), reads ? [] : ['BEGIN'], ['COMMIT']) };
  } catch (error) {
    await session.failed();
    // A COMMIT PostgreSQL did not answer may have committed, and a command run a second time
    // would apply twice: each fails, as it would alone.
    if (committing && !(error instanceof DatabaseError)) for (const { member } of ran) fail(member, error);
    return undefined;
  }
}

/**
 * A PREPARE outlives its transaction, so after a failed message the statements it prepared
 * before the failure exist and the others do not: the connection says which.
 */
async function learnPrepared(connection: PoolClient, prepared: Set<string>, preparing: PreparedStatement[]): Promise<void> {
  await connection
    .query<{ name: string }>(`SELECT name FROM pg_prepared_statements WHERE name = ANY($1::text[])`, [preparing.map(({ name }) => name)])
    .then(({ rows }) => rows.forEach(({ name }) => prepared.add(name)))
    // Unknown, it stays unprepared: its next PREPARE fails if it exists, and that failure asks again.
    .catch(() => undefined);
}
