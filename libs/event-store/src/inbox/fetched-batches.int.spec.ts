import type { KafkaContext } from '@nestjs/microservices';
import { randomUUID } from 'node:crypto';
import type { EachBatchPayload, KafkaMessage } from 'kafkajs';
import { DataSource, type EntityManager } from 'typeorm';
import { IsInt } from 'class-validator';
import type { EventEnvelope } from '@trilha/contracts';
import { testStack } from '@trilha/testing';
import { writeAtCommit } from '../compact-transaction';
import { dataSourceOptions, migrate, type ServiceDatabase } from '../database';
import { KafkaServer } from './kafka-server';
import { MessageConsumer } from './message-consumer';

class AddedData {
  @IsInt() amount: number;
}

const CONSUMER = 'it-batches';

describe('a partition’s fetched messages through the inbox (PostgreSQL)', () => {
  const stack = testStack();
  const schema = `it_batches_${randomUUID().replace(/-/g, '').slice(0, 10)}`;
  const topic = `it.batches.${schema}.v1`;
  const database: ServiceDatabase = { url: stack.infra.databaseUrl, schema, poolSize: 4, migrations: [] };
  const contract = { added: { data: AddedData, schemaVersions: [1] } };
  let dataSource: DataSource;

  beforeAll(async () => {
    await migrate(database);
    dataSource = await new DataSource(dataSourceOptions(database)).initialize();
    // `n` numbers the rows in the order their statements ran; `at` is when each ran.
    await dataSource.query(`CREATE TABLE noted (n bigserial, amount integer NOT NULL CHECK (amount > 0), at timestamptz NOT NULL DEFAULT clock_timestamp())`);
  });

  afterAll(async () => {
    await dataSource.query(`DROP SCHEMA ${schema} CASCADE`);
    await dataSource.destroy();
  });

  /** A Kafka server whose handler for `topic` consumes through the inbox, noting each amount. */
  function serverNoting(consumer: MessageConsumer): KafkaServer {
    const server = new KafkaServer({ client: { brokers: ['127.0.0.1:1'] } });
    const note = (event: EventEnvelope<AddedData>, manager: EntityManager) => writeAtCommit(manager, `INSERT INTO noted (amount) VALUES ($1)`, [event.data.amount]);
    server.addHandler(topic, (_data: unknown, context: KafkaContext) => consumer.consume(CONSUMER, context, contract, note), true);
    return server;
  }

  /** A fetched batch of one store's messages on partition 0, and the offsets it resolved. */
  function fetched(amounts: number[]): { payload: EachBatchPayload; resolved: string[] } {
    const resolved: string[] = [];
    const messages = amounts.map((amount, index) => {
      const envelope = { id: randomUUID(), type: 'added', schemaVersion: 1, occurredAt: new Date().toISOString(), idLoja: 7, correlationId: 'c', causationId: null, traceparent: null, data: { amount } };
      return { key: Buffer.from('7'), value: Buffer.from(JSON.stringify(envelope)), headers: { 'event-type': Buffer.from('added') }, offset: String(100 + index), timestamp: '0', attributes: 0 } as KafkaMessage;
    });
    const payload = {
      batch: { topic, partition: 0, messages },
      resolveOffset: (offset: string) => void resolved.push(offset),
      heartbeat: async () => undefined,
      pause: () => () => undefined,
      isRunning: () => true,
      isStale: () => false,
    } as unknown as EachBatchPayload;
    return { payload, resolved };
  }

  it('handles consecutive messages of a partition in one transaction, in their order, and resolves each offset', async () => {
    const server = serverNoting(new MessageConsumer(dataSource));
    const { payload, resolved } = fetched([1, 2, 3, 4, 5]);
    const transactions = jest.spyOn(dataSource, 'createQueryRunner');
    try {
      await server.handleBatch(payload);
      expect(transactions).toHaveBeenCalledTimes(1);
    } finally {
      transactions.mockRestore();
    }
    expect(await dataSource.query(`SELECT amount FROM noted ORDER BY n`)).toEqual([1, 2, 3, 4, 5].map((amount) => ({ amount })));
    expect(resolved).toEqual(['100', '101', '102', '103', '104']);
  });

  it('keeps the partition’s order when the shared transaction fails: each message is tried alone once the one before it finished', async () => {
    await dataSource.query(`TRUNCATE noted`);
    const server = serverNoting(new MessageConsumer(dataSource, { triesBeforeParking: 3, firstBackoffMs: 50 }));
    // -1 breaks the table's CHECK: the shared transaction fails, and that message keeps failing.
    const { payload, resolved } = fetched([10, -1, 30]);
    await server.handleBatch(payload);

    expect(await dataSource.query(`SELECT amount FROM noted ORDER BY n`)).toEqual([{ amount: 10 }, { amount: 30 }]);
    const [parked] = await dataSource.query(`SELECT "offset"::text, parked_at FROM parked_messages WHERE consumer = $1`, [CONSUMER]);
    expect(parked.offset).toBe('101');
    // The message after the failing one waited for its three tries and its parking.
    const [last] = await dataSource.query(`SELECT at FROM noted WHERE amount = 30`);
    expect(last.at.getTime()).toBeGreaterThanOrEqual(parked.parked_at.getTime());
    expect(resolved).toEqual(['100', '101', '102']);
  });
});
