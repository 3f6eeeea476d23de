import { KafkaContext } from '@nestjs/microservices';
import { randomUUID } from 'node:crypto';
import type { Consumer, KafkaMessage } from 'kafkajs';
import { DataSource, type EntityManager } from 'typeorm';
import { IsInt } from 'class-validator';
import { context, propagation, ROOT_CONTEXT } from '@opentelemetry/api';
import { requestContext } from '@trilha/observability';
import { startTracing } from '@trilha/observability/tracing';
import { testStack, eventually } from '@trilha/testing';
import { dataSourceOptions, migrate, type ServiceDatabase } from './database';
import { handleCommand, type Decider } from './decider';
import { compactTransaction, inlineParameters, writeAtCommit } from './compact-transaction';
import { ConcurrencyError, EventStore } from './event-store';
import { MessageConsumer } from './inbox/message-consumer';
import { WriteBatcher } from './inbox/write-batcher';
import { createKafka } from './kafka';
import { OutboxRelay } from './outbox/outbox-relay';
import type { Projection } from './projections/projection';
import { rebuildProjections } from './projections/rebuild';
import type { AppendedEvent } from './stored-event';

/** A counter stream: the smallest aggregate that shows the store's guarantees. */
type Added = { type: 'added'; data: { amount: number } };
const counter: Decider<{ add: number }, number, Added> = {
  initialState: () => 0,
  decide: (command) => [{ type: 'added', data: { amount: command.add } }],
  evolve: (total, event) => total + event.data.amount,
};

class TotalsProjection implements Projection<Added> {
  readonly name = 'totals';
  readonly handles = ['added'] as const;
  readonly tables = ['totals'];
  async apply(manager: EntityManager, event: AppendedEvent<Added>): Promise<void> {
    await writeAtCommit(
      manager,
      `INSERT INTO totals (stream_id, total) VALUES ($1, $2)
       ON CONFLICT (stream_id) DO UPDATE SET total = totals.total + EXCLUDED.total`,
      [event.streamId, event.data.amount],
    );
  }
}

class AddedData {
  @IsInt() amount: number;
}

startTracing('event-store-it');

describe('event store (PostgreSQL and Kafka)', () => {
  const stack = testStack();
  const schema = `it_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const topic = `it.events.${schema}.v1`;
  /** The next version of `topic`, published beside it while its consumers move. */
  const topicV2 = `it.events.${schema}.v2`;
  const database: ServiceDatabase = { url: stack.infra.databaseUrl, schema, poolSize: 5, migrations: [] };
  const kafka = createKafka({ brokers: [stack.infra.kafkaBrokers] }, `it-${schema}`);
  let dataSource: DataSource;
  let store: EventStore<Added>;
  /** The relay deletes what it published once Kafka has it, so a consumer may read a message before that delete commits. */
  const outboxDrained = () =>
    eventually('the outbox drained', async () => ((await dataSource.query(`SELECT count(*)::int AS n FROM outbox`))[0].n === 0 ? true : undefined));

  beforeAll(async () => {
    await migrate(database);
    dataSource = await new DataSource(dataSourceOptions(database)).initialize();
    await dataSource.query(`CREATE TABLE totals (stream_id text PRIMARY KEY, total integer NOT NULL)`);
    store = new EventStore<Added>(dataSource, (event) => [{ topic, schemaVersion: 1, data: event.data }], [new TotalsProjection()]);
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic, numPartitions: 3 }, { topic: topicV2, numPartitions: 3 }], waitForLeaders: true });
    await admin.disconnect();
  });

  afterAll(async () => {
    await dataSource.query(`DROP SCHEMA ${schema} CASCADE`);
    await dataSource.destroy();
  });

  it('appends with the expected version and refuses a stale one', async () => {
    const stream = `counter-${randomUUID()}`;
    await store.transaction((manager) => store.append(manager, stream, 0, [{ type: 'added', data: { amount: 1 } }], { idLoja: 1 }));
    await expect(
      store.transaction((manager) => store.append(manager, stream, 0, [{ type: 'added', data: { amount: 2 } }], { idLoja: 1 })),
    ).rejects.toBeInstanceOf(ConcurrencyError);
    const events = await store.readStream(stream);
    expect(events.map((event) => [event.streamVersion, event.data])).toEqual([[1, { amount: 1 }]]);
  });

  it('never loses an event when commands race on one stream', async () => {
    const stream = `counter-${randomUUID()}`;
    await Promise.all(Array.from({ length: 20 }, () => handleCommand(store, counter, stream, { add: 1 }, { idLoja: 1 })));
    const events = await store.readStream(stream);
    expect(events.map((event) => event.streamVersion)).toEqual(Array.from({ length: 20 }, (_, index) => index + 1));
    const [row] = await dataSource.query(`SELECT total FROM totals WHERE stream_id = $1`, [stream]);
    expect(row.total).toBe(20);
  });

  it('reads for a decision that folds some types only those events and the stream’s last, and appends at the stream’s version', async () => {
    // Types of their own: the totals projection (and its rebuild below) never sees them.
    type Counted = { type: 'counted'; data: { amount: number } };
    type Noted = { type: 'noted'; data: { note: string } };
    const tallies = new EventStore<Counted | Noted>(dataSource, () => [], []);
    /** Notes fold only the amounts; `seen` lists the types folded, the note's own last. */
    const notes: Decider<{ note: string }, { total: number; seen: string[] }, Counted | Noted> = {
      initialState: () => ({ total: 0, seen: [] }),
      decide: (command) => [{ type: 'noted', data: { note: command.note } }],
      evolve: (state, event) => ({ total: state.total + (event.type === 'counted' ? event.data.amount : 0), seen: [...state.seen, event.type] }),
      folds: () => ['counted'],
    };
    const stream = `tally-${randomUUID()}`;
    const counted = (amount: number): Counted => ({ type: 'counted', data: { amount } });
    const noted = (note: string): Noted => ({ type: 'noted', data: { note } });
    await tallies.transaction((manager) => tallies.append(manager, stream, 0, [counted(1), noted('a'), noted('b'), counted(2), noted('c')], { idLoja: 1 }));
    const decision = await handleCommand(tallies, notes, stream, { note: 'd' }, { idLoja: 1 });
    expect(decision.state).toEqual({ total: 3, seen: ['counted', 'counted', 'noted', 'noted'] });
    expect(decision.events.map((event) => event.streamVersion)).toEqual([6]);
    // Racing writers still meet at the version: none is lost, none written twice.
    await Promise.all(Array.from({ length: 10 }, (_, index) => handleCommand(tallies, notes, stream, { note: `e${index}` }, { idLoja: 1 })));
    expect((await tallies.readStream(stream)).map((event) => event.streamVersion)).toEqual(Array.from({ length: 16 }, (_, index) => index + 1));
  });

  it('runs a command on a stream it creates without reading it, and reads it on the retry when it existed after all', async () => {
    const stream = `counter-${randomUUID()}`;
    const created = await handleCommand(store, counter, stream, { add: 3 }, { idLoja: 1, newStream: true });
    expect([created.state, created.events.map((event) => event.streamVersion)]).toEqual([3, [1]]);
    // Not new after all: the first append collides with version 1, the retry folds the stream.
    const next = await handleCommand(store, counter, stream, { add: 4 }, { idLoja: 1, newStream: true });
    expect([next.state, next.events.map((event) => event.streamVersion)]).toEqual([7, [2]]);
    expect((await store.readStream(stream)).map((event) => event.data)).toEqual([{ amount: 3 }, { amount: 4 }]);
    // Nothing can be read in a transaction whose BEGIN travels with its COMMIT.
    await expect(compactTransaction(dataSource, null, (manager) => manager.query('SELECT 1'))).rejects.toThrow(/reads nothing/);
  });

  it('runs the transactions of one turn together, and one that fails, in its work or at the commit, fails only itself', async () => {
    await dataSource.query(`CREATE TABLE together (id text PRIMARY KEY, tx bigint NOT NULL)`);
    const reading = [{ statement: `SELECT txid_current()::text AS tx`, params: [] }];
    const inTurn = (id: string, opening: typeof reading | null, refuse = false) =>
      compactTransaction(
        dataSource,
        opening,
        async (manager, opened) => {
          if (refuse) throw new Error(`${id} refused`);
          await writeAtCommit(manager, `INSERT INTO together VALUES ($1, txid_current()) RETURNING id`, [id], (rows) => expect(rows).toEqual([{ id }]));
          return opened?.rows[0].tx ?? id;
        },
        { together: true },
      );
    const transactions = async () => (await dataSource.query(`SELECT count(DISTINCT tx)::int AS n FROM together`))[0].n;

    // Write-only transactions: one message, one commit.
    await expect(Promise.all(['a', 'b', 'c'].map((id) => inTurn(id, null)))).resolves.toEqual(['a', 'b', 'c']);
    expect(await transactions()).toBe(1);

    // With openings, and one whose work refuses: the others share one transaction, and read in it.
    const outcomes = await Promise.allSettled([inTurn('d', reading), inTurn('x', reading, true), inTurn('e', null), inTurn('f', reading)]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason.message).toBe('x refused');
    const [d, , , f] = outcomes.map((outcome) => (outcome as PromiseFulfilledResult<string>).value);
    expect(d).toBe(f);
    const [{ tx }] = await dataSource.query(`SELECT tx::text FROM together WHERE id = 'e'`);
    expect(tx).toBe(d);
    expect(await transactions()).toBe(2);

    // 'a' exists: the shared transaction fails, and each of them runs again alone.
    const again = await Promise.allSettled([inTurn('g', reading), inTurn('a', null), inTurn('h', null)]);
    expect(again.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await dataSource.query(`SELECT id FROM together ORDER BY id`)).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((id) => ({ id })));
  });

  it('lands commands of one turn on the same stream, one after the other', async () => {
    const stream = `counter-${randomUUID()}`;
    await handleCommand(store, counter, stream, { add: 1 }, { idLoja: 1, newStream: true });
    // All three read version 1 in one transaction: its commit fails, and each runs again alone.
    await Promise.all([2, 3, 4].map((add) => handleCommand(store, counter, stream, { add }, { idLoja: 1 })));
    const events = await store.readStream(stream);
    expect(events.map((event) => event.streamVersion)).toEqual([1, 2, 3, 4]);
    expect(events.reduce((total, event) => total + event.data.amount, 0)).toBe(10);
  });

  it('keeps reading streams on a connection that prepared the read before a migration added a column to the log', async () => {
    // One connection, so the second command meets the read the first one prepared.
    const single = await new DataSource(dataSourceOptions({ ...database, poolSize: 1 })).initialize();
    const onOne = new EventStore<Added>(single, () => [], [new TotalsProjection()]);
    const stream = `counter-${randomUUID()}`;
    try {
      await handleCommand(onOne, counter, stream, { add: 1 }, { idLoja: 1 });
      await dataSource.query(`ALTER TABLE events ADD COLUMN added_later integer`);
      expect((await handleCommand(onOne, counter, stream, { add: 2 }, { idLoja: 1 })).state).toBe(3);
    } finally {
      await dataSource.query(`ALTER TABLE events DROP COLUMN IF EXISTS added_later`);
      await single.destroy();
    }
  });

  it('rolls back the events, the outbox and the projection together', async () => {
    const stream = `counter-${randomUUID()}`;
    await expect(
      store.transaction(async (manager) => {
        await store.append(manager, stream, 0, [{ type: 'added', data: { amount: 5 } }], { idLoja: 1 });
        throw new Error('handler failed after appending');
      }),
    ).rejects.toThrow('handler failed');
    expect(await store.readStream(stream)).toEqual([]);
    expect(await dataSource.query(`SELECT * FROM totals WHERE stream_id = $1`, [stream])).toEqual([]);
    expect(await dataSource.query(`SELECT * FROM outbox WHERE envelope->>'type' = 'added' AND envelope->'data'->>'amount' = '5'`)).toEqual([]);
  });

  it('writes parameters into a statement as literals PostgreSQL reads back unchanged', async () => {
    const text = "it's a \\ and a \" and $1";
    const array = ['faq', 'a"b', 'c\\d', 'x,y', '{z}', ''];
    const date = new Date('2026-01-02T03:04:05.678Z');
    const [row] = await dataSource.query(
      inlineParameters('SELECT $1::text AS text, $2::text[] AS array, $3::int AS n, $4::timestamptz AS date, $5::boolean AS yes, $6::text AS nothing', [
        text, array, -7, date, true, null,
      ]),
    );
    expect(row).toEqual({ text, array, n: -7, date, yes: true, nothing: null });
  });

  it('writes arrays of numbers, booleans, dates and NULLs as PostgreSQL reads them back', async () => {
    const date = new Date('2026-01-02T03:04:05.678Z');
    const [row] = await dataSource.query(
      inlineParameters('SELECT $1::int[] AS ints, $2::boolean[] AS flags, $3::timestamptz[] AS dates, $4::text[] AS texts', [
        [1, -2, null], [true, false, null], [date, null], [null, 'NULL', 'a"b'],
      ]),
    );
    expect(row).toEqual({ ints: [1, -2, null], flags: [true, false, null], dates: [date, null], texts: [null, 'NULL', 'a"b'] });
  });

  it('hands a held write its rows once the COMMIT succeeded, never when it failed, and only in a compact transaction', async () => {
    await dataSource.query(`CREATE TABLE read_back (id text PRIMARY KEY, n integer NOT NULL)`);
    const read: Record<string, unknown>[][] = [];
    await compactTransaction(dataSource, undefined, async (manager) => {
      await writeAtCommit(manager, `INSERT INTO read_back VALUES ('first', 1)`, []);
      await writeAtCommit(manager, `INSERT INTO read_back VALUES ($1, 2) RETURNING id, n`, ['second'], (rows) => read.push(rows));
      // Nothing is read before the commit.
      expect(read).toEqual([]);
    });
    expect(read).toEqual([[{ id: 'second', n: 2 }]]);

    // The second write breaks the primary key: the transaction rolls back and nothing is read.
    await expect(
      compactTransaction(dataSource, undefined, async (manager) => {
        await writeAtCommit(manager, `INSERT INTO read_back VALUES ('third', 3) RETURNING n`, [], (rows) => read.push(rows));
        await writeAtCommit(manager, `INSERT INTO read_back VALUES ('second', 4)`, []);
      }),
    ).rejects.toThrow(/duplicate key/);
    expect(read).toHaveLength(1);
    expect(await dataSource.query(`SELECT id, n FROM read_back ORDER BY id`)).toEqual([{ id: 'first', n: 1 }, { id: 'second', n: 2 }]);

    await expect(dataSource.transaction((manager) => writeAtCommit(manager, `SELECT 1`, [], () => undefined))).rejects.toThrow(/compactTransaction/);
  });

  it('prepares a statement once per connection, and knows it prepared one in a message that then failed', async () => {
    await dataSource.query(`CREATE TABLE prepared_back (id text PRIMARY KEY, n integer NOT NULL)`);
    // One connection, so every transaction below meets what the ones before it prepared.
    const single = await new DataSource(dataSourceOptions({ ...database, poolSize: 1 })).initialize();
    const statement = { name: `it_prepared_${schema}`, text: `INSERT INTO prepared_back VALUES ($1::text, $2::int) RETURNING n` };
    const read: unknown[] = [];
    const run = (id: string, n: number, fail = false) =>
      compactTransaction(single, undefined, async (manager) => {
        await writeAtCommit(manager, statement, [id, n], (rows) => read.push(...rows.map((row) => row.n)));
        if (fail) await writeAtCommit(manager, `SELECT 1 / 0`, []);
      });
    try {
      // The PREPARE runs, then the message fails: the statement exists on the connection.
      await expect(run('a', 1, true)).rejects.toThrow(/division by zero/);
      // Preparing it again would fail ("already exists").
      await run('b', 2);
      await run('c', 3);
      expect(read).toEqual([2, 3]);
      expect(await single.query(`SELECT count(*)::int AS n FROM pg_prepared_statements WHERE name = $1`, [statement.name])).toEqual([{ n: 1 }]);
      expect(await dataSource.query(`SELECT id, n FROM prepared_back ORDER BY id`)).toEqual([{ id: 'b', n: 2 }, { id: 'c', n: 3 }]);
    } finally {
      await single.destroy();
    }
  });

  it('rebuilds a projection from the event log', async () => {
    const before = await dataSource.query(`SELECT stream_id, total FROM totals ORDER BY stream_id`);
    await dataSource.query(`UPDATE totals SET total = -1`);
    const lines: string[] = [];
    const counts = await rebuildProjections(dataSource, [new TotalsProjection()], (line) => lines.push(line));
    expect(await dataSource.query(`SELECT stream_id, total FROM totals ORDER BY stream_id`)).toEqual(before);
    expect(counts.totals).toBeGreaterThan(0);
    expect(lines.at(-1)).toMatch(/replayed \d+\/\d+ events/);
  });

  it('rebuilds while a writer holds one of its tables and waits for another the rebuild holds: the rebuild steps back, neither fails', async () => {
    await dataSource.query(`CREATE TABLE parents (id integer PRIMARY KEY)`);
    await dataSource.query(`CREATE TABLE children (id integer PRIMARY KEY)`);
    const pair: Projection<Added> = { name: 'pair', handles: ['added'], tables: ['parents', 'children'], apply: async () => undefined };
    const [{ added }] = await dataSource.query(`SELECT count(*)::int AS added FROM events WHERE type = 'added'`);
    const writer = dataSource.createQueryRunner();
    await writer.connect();
    await writer.startTransaction();
    await writer.query(`INSERT INTO children VALUES (1)`);
    const lines: string[] = [];
    const rebuild = rebuildProjections(dataSource, [pair], (line) => lines.push(line));
    // The rebuild holds parents and waits for children: the writer's next lock would close the cycle.
    await eventually('the rebuild waits for the writer', async () =>
      (await dataSource.query(`SELECT 1 FROM pg_locks WHERE relation = 'children'::regclass AND NOT granted`)).length > 0 || undefined);
    await writer.query(`INSERT INTO parents VALUES (1)`);
    await writer.commitTransaction();
    await writer.release();
    await expect(rebuild).resolves.toEqual({ pair: added });
    expect(lines).toContainEqual(expect.stringMatching(/writers hold the read models' tables; trying again/));
    expect(await dataSource.query(`SELECT (SELECT count(*)::int FROM parents) AS parents, (SELECT count(*)::int FROM children) AS children`)).toEqual([{ parents: 0, children: 0 }]);
  });

  describe('outbox relay and inbox', () => {
    let relay: OutboxRelay;
    let consumer: Consumer;
    const received: KafkaMessage[] = [];

    beforeAll(async () => {
      relay = new OutboxRelay(kafka, database);
      store.onOutboxCommit(() => relay.wake());
      relay.start();
      consumer = kafka.consumer({ groupId: `it-${schema}` });
      await consumer.connect();
      await consumer.subscribe({ topic, fromBeginning: true });
      await consumer.run({ eachMessage: async ({ message }) => void received.push(message) });
    });

    afterAll(async () => {
      await consumer.disconnect();
      await relay.stop();
    });

    it('publishes committed events to Kafka with the envelope, the key and the stored trace', async () => {
      const stream = `counter-${randomUUID()}`;
      const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
      const correlationId = randomUUID();
      const [event] = await context.with(propagation.extract(ROOT_CONTEXT, { traceparent }), () =>
        requestContext.run({ correlationId, causationId: 'req-1' }, () =>
          store.transaction((manager) => store.append(manager, stream, 0, [{ type: 'added', data: { amount: 7 } }], { idLoja: 42 })),
        ),
      );
      const message = await eventually('the event on Kafka', () => received.find((m) => JSON.parse(String(m.value)).id === event.id));
      const envelope = JSON.parse(String(message.value));
      // The appended event is the stored one but for what PostgreSQL sets as it commits.
      const [{ globalPosition: _position, occurredAt, ...stored }] = await store.readStream(stream);
      expect(stored).toEqual(event);
      expect(String(message.key)).toBe('42');
      expect(envelope).toEqual({
        id: event.id,
        type: 'added',
        schemaVersion: 1,
        occurredAt,
        idLoja: 42,
        correlationId,
        causationId: 'req-1',
        traceparent: expect.stringMatching(/^00-4bf92f3577b34da6a3ce929d0e0e4736-[0-9a-f]{16}-01$/),
        data: { amount: 7 },
      });
      // The header is the relay's producer span: in the stored trace, a child of the writing span.
      expect(String(message.headers?.traceparent)).toMatch(/^00-4bf92f3577b34da6a3ce929d0e0e4736-[0-9a-f]{16}-01$/);
      expect(String(message.headers?.traceparent)).not.toBe(envelope.traceparent);
      await outboxDrained();
    });

    it('keeps the order of one store’s events', async () => {
      const stream = `counter-${randomUUID()}`;
      for (let amount = 1; amount <= 30; amount += 1) {
        await store.transaction((manager) => store.append(manager, stream, amount - 1, [{ type: 'added', data: { amount } }], { idLoja: 9 }));
      }
      const amounts = await eventually('all 30 events', () => {
        const mine = received.map((m) => JSON.parse(String(m.value))).filter((e) => e.idLoja === 9 && e.type === 'added');
        return mine.length >= 30 ? mine.map((e) => e.data.amount) : undefined;
      });
      expect(amounts).toEqual(Array.from({ length: 30 }, (_, index) => index + 1));
    });

    it('drains a backlog of several batches, each chained to the next, in order', async () => {
      const stream = `counter-${randomUUID()}`;
      const events = Array.from({ length: 1_100 }, (_, index): Added => ({ type: 'added', data: { amount: index + 1 } }));
      await store.transaction((manager) => store.append(manager, stream, 0, events, { idLoja: 13 }));
      const amounts = await eventually('all 1,100 events', () => {
        const mine = received.map((m) => JSON.parse(String(m.value))).filter((e) => e.idLoja === 13 && e.type === 'added');
        return mine.length >= 1_100 ? mine.map((e) => e.data.amount) : undefined;
      });
      expect(amounts).toEqual(events.map((event) => event.data.amount));
      await outboxDrained();
    });

    it('relays the commits of two replicas, each waking only its own relay, in order', async () => {
      const replica = await new DataSource(dataSourceOptions(database)).initialize();
      const replicaStore = new EventStore<Added>(replica, (event) => [{ topic, schemaVersion: 1, data: event.data }], []);
      const replicaRelay = new OutboxRelay(kafka, database);
      replicaStore.onOutboxCommit(() => replicaRelay.wake());
      replicaRelay.start();
      try {
        const stream = `counter-${randomUUID()}`;
        for (let amount = 1; amount <= 40; amount += 1) {
          const writer = amount % 2 === 0 ? replicaStore : store;
          await writer.transaction((manager) => writer.append(manager, stream, amount - 1, [{ type: 'added', data: { amount } }], { idLoja: 11 }));
        }
        const amounts = await eventually('all 40 events', () => {
          const mine = received.map((m) => JSON.parse(String(m.value))).filter((e) => e.idLoja === 11 && e.type === 'added');
          return mine.length >= 40 ? mine.map((e) => e.data.amount) : undefined;
        });
        expect(amounts).toEqual(Array.from({ length: 40 }, (_, index) => index + 1));
      } finally {
        await replicaRelay.stop();
        await replica.destroy();
      }
    });

    it('publishes an event to every topic its routing names, each with its own payload and schema version', async () => {
      const twoVersions = new EventStore<Added>(
        dataSource,
        (event) => [
          { topic, schemaVersion: 1, data: event.data },
          { topic: topicV2, schemaVersion: 2, data: { quantia: event.data.amount } },
        ],
        [],
      );
      twoVersions.onOutboxCommit(() => relay.wake());
      const v2: KafkaMessage[] = [];
      const consumerV2 = kafka.consumer({ groupId: `it-${schema}-v2` });
      await consumerV2.connect();
      await consumerV2.subscribe({ topic: topicV2, fromBeginning: true });
      await consumerV2.run({ eachMessage: async ({ message }) => void v2.push(message) });
      try {
        const stream = `counter-${randomUUID()}`;
        const [appended] = await twoVersions.transaction((manager) => twoVersions.append(manager, stream, 0, [{ type: 'added', data: { amount: 17 } }], { idLoja: 17 }));
        const find = (messages: KafkaMessage[]) => messages.find((message) => JSON.parse(String(message.value)).id === appended.id);
        const [first, second] = await eventually('the event on both topics', () => {
          const [one, two] = [find(received), find(v2)];
          return one && two ? [one, two] : undefined;
        });
        const [envelopeV1, envelopeV2] = [JSON.parse(String(first.value)), JSON.parse(String(second.value))];
        expect(envelopeV1).toMatchObject({ type: 'added', schemaVersion: 1, idLoja: 17, data: { amount: 17 } });
        expect(envelopeV2).toMatchObject({ type: 'added', schemaVersion: 2, idLoja: 17, data: { quantia: 17 } });
        expect({ ...envelopeV2, schemaVersion: 1, data: envelopeV1.data }).toEqual(envelopeV1);
        expect([String(first.key), String(second.key)]).toEqual(['17', '17']);
        await outboxDrained();
      } finally {
        await consumerV2.disconnect();
      }
    });

    it('writes no outbox message for an event its routing keeps private', async () => {
      const privateStore = new EventStore<Added>(dataSource, () => [], []);
      const stream = `counter-${randomUUID()}`;
      await privateStore.transaction(async (manager) => {
        await privateStore.append(manager, stream, 0, [{ type: 'added', data: { amount: 9 } }], { idLoja: 19 });
      });
      expect((await privateStore.readStream(stream)).map((event) => event.data)).toEqual([{ amount: 9 }]);
      expect(await dataSource.query(`SELECT * FROM outbox WHERE envelope->>'idLoja' = '19'`)).toEqual([]);
    });

    it('handles a redelivered message once and skips an invalid one without blocking', async () => {
      await dataSource.query(`CREATE TABLE IF NOT EXISTS seen (event_id uuid, amount integer)`);
      const inbox = new MessageConsumer(dataSource);
      const contract = { added: { data: AddedData, schemaVersions: [1] } };
      const envelope = {
        id: randomUUID(), type: 'added', schemaVersion: 1, occurredAt: new Date().toISOString(), idLoja: 3,
        correlationId: 'c', causationId: null, traceparent: null, data: { amount: 4 },
      };
      const contextFor = (value: object) =>
        new KafkaContext([{ value: Buffer.from(JSON.stringify(value)), headers: {}, offset: '0' } as unknown as KafkaMessage, 0, topic, {} as never, (async () => undefined) as never, {} as never]);
      const handler = async (event: { id: string; data: object }, manager: EntityManager) => {
        await manager.query(`INSERT INTO seen VALUES ($1, $2)`, [event.id, (event.data as AddedData).amount]);
      };
      await inbox.consume('it-consumer', contextFor(envelope), contract, handler);
      await inbox.consume('it-consumer', contextFor(envelope), contract, handler);
      await inbox.consume('it-consumer', contextFor({ ...envelope, id: randomUUID(), data: { amount: 'four' } }), contract, handler);
      await inbox.consume('it-consumer', contextFor({ ...envelope, id: randomUUID(), type: 'unknown' }), contract, handler);
      expect(await dataSource.query(`SELECT amount FROM seen`)).toEqual([{ amount: 4 }]);
    });

    it('handles the messages of the partitions taken at the same time in one inbox transaction, each in its own context, and retries them alone when it fails', async () => {
      await dataSource.query(`CREATE TABLE noted (event_id uuid PRIMARY KEY, amount integer NOT NULL CHECK (amount > 0), causation_id text)`);
      const inbox = new MessageConsumer(dataSource, { triesBeforeParking: 2, firstBackoffMs: 10 });
      const contract = { added: { data: AddedData, schemaVersions: [1] } };
      const messageFor = (partition: number, amount: number) => ({
        id: randomUUID(), type: 'added', schemaVersion: 1, occurredAt: new Date().toISOString(), idLoja: 100 - partition,
        correlationId: 'c', causationId: null, traceparent: null, data: { amount },
      });
      const contextFor = (partition: number, value: object) =>
        new KafkaContext([{ value: Buffer.from(JSON.stringify(value)), headers: {}, offset: '0' } as unknown as KafkaMessage, partition, topic, {} as never, (async () => undefined) as never, {} as never]);
      const note = (event: { id: string; data: object }, manager: EntityManager) =>
        writeAtCommit(manager, `INSERT INTO noted VALUES ($1, $2, $3)`, [event.id, (event.data as AddedData).amount, requestContext.get()?.causationId ?? null]);
      const consumeAll = (messages: object[]) =>
        Promise.all(messages.map((message, partition) => inbox.consume('it-noted', contextFor(partition, message), contract, note)));

      const messages = Array.from({ length: 12 }, (_, partition) => messageFor(partition, partition + 1));
      // One of them was handled before (a redelivery): the batch skips it.
      await dataSource.query(`INSERT INTO inbox (consumer, event_id) VALUES ('it-noted', $1)`, [messages[5].id]);
      const transactions = jest.spyOn(dataSource, 'createQueryRunner');
      try {
        await consumeAll(messages);
        expect(transactions).toHaveBeenCalledTimes(1);
      } finally {
        transactions.mockRestore();
      }
      const noted = await dataSource.query(`SELECT event_id, causation_id FROM noted ORDER BY amount`);
      const expected = messages.filter((_, partition) => partition !== 5).map(({ id }) => ({ event_id: id, causation_id: id }));
      expect(noted).toEqual(expected);

      // A message whose write fails fails its batch; the others, retried alone, are handled, and it is parked.
      const second = [messageFor(0, 20), messageFor(1, -1), messageFor(2, 22)];
      await consumeAll(second);
      expect(await dataSource.query(`SELECT amount FROM noted WHERE amount >= 20 ORDER BY amount`)).toEqual([{ amount: 20 }, { amount: 22 }]);
      expect(await dataSource.query(`SELECT count(*)::int AS parked FROM parked_messages WHERE consumer = 'it-noted'`)).toEqual([{ parked: 1 }]);
    });

    it('sends the writes of messages an idempotent handler takes at the same time in one message, prepared statements included, and fails them together', async () => {
      await dataSource.query(`CREATE TABLE tally (partition integer PRIMARY KEY, amount integer NOT NULL CHECK (amount > 0))`);
      const inbox = new MessageConsumer(dataSource);
      const contextFor = (partition: number, amount: number) => {
        const value = { id: randomUUID(), type: 'added', schemaVersion: 1, occurredAt: new Date().toISOString(), idLoja: partition + 1, correlationId: 'c', causationId: null, traceparent: null, data: { amount } };
        return new KafkaContext([{ value: Buffer.from(JSON.stringify(value)), headers: {}, offset: '0' } as unknown as KafkaMessage, partition, topic, {} as never, (async () => undefined) as never, {} as never]);
      };
      const tally = (event: { idLoja: number; data: object }, manager: EntityManager) =>
        writeAtCommit(manager, { name: 'it_tally', text: `INSERT INTO tally VALUES ($1, $2) ON CONFLICT (partition) DO UPDATE SET amount = EXCLUDED.amount` }, [event.idLoja - 1, (event.data as AddedData).amount]);
      // Each message to PostgreSQL goes on a connection of its own.
      const sent = jest.spyOn(dataSource, 'createQueryRunner');
      try {
        // One message per partition, as kafkajs hands them over when it consumes twelve at once.
        await Promise.all(Array.from({ length: 12 }, (_, partition) => inbox.consume('it-tally', contextFor(partition, partition + 1), { added: { data: AddedData, schemaVersions: [1] } }, tally, { idempotent: true })));
        expect(sent).toHaveBeenCalledTimes(1);
        expect(await dataSource.query(`SELECT sum(amount)::int AS total, count(*)::int AS rows FROM tally`)).toEqual([{ total: 78, rows: 12 }]);

        // A statement that fails fails its batch: none of it is written, and each message is retried.
        const batcher = new WriteBatcher(dataSource);
        const statement = (partition: number, amount: number) => ({ statement: `UPDATE tally SET amount = $2 WHERE partition = $1`, params: [partition, amount] });
        const outcomes = await Promise.allSettled([batcher.send([statement(0, 100)]), batcher.send([statement(1, -1)])]);
        expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
        expect(await dataSource.query(`SELECT amount FROM tally WHERE partition IN (0, 1) ORDER BY partition`)).toEqual([{ amount: 1 }, { amount: 2 }]);
      } finally {
        sent.mockRestore();
      }
    });
  });
});
