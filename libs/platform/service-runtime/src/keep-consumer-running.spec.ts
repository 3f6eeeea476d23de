import { EventEmitter } from 'node:events';
import type { INestMicroservice } from '@nestjs/common';
import { ConsumerMembership } from '@trilha/event-store';
import { keepConsumerRunning } from './keep-consumer-running';

/** A kafkajs consumer and producer as far as the restart needs them. */
function kafkaPair() {
  const emitter = new EventEmitter();
  const consumer = {
    events: { CRASH: 'consumer.crash', GROUP_JOIN: 'consumer.group_join', FETCH: 'consumer.fetch', REBALANCING: 'consumer.rebalancing' },
    on: (event: string, listener: (event: unknown) => void) => emitter.on(event, listener),
    disconnect: jest.fn(async () => undefined),
    crash: (restart: boolean) =>
      emitter.emit('consumer.crash', { payload: { error: new Error('Failed to find group coordinator'), groupId: 'delivery-service', restart } }),
    join: () => emitter.emit('consumer.group_join', {}),
    fetch: () => emitter.emit('consumer.fetch', {}),
    rebalance: () => emitter.emit('consumer.rebalancing', {}),
  };
  return { consumer, producer: { disconnect: jest.fn(async () => undefined) } };
}

/** Like Nest's Kafka server, every listen() creates a new consumer and producer; none before the first. */
function kafkaMicroservice(failingListens = 0) {
  const created: ReturnType<typeof kafkaPair>[] = [];
  const current = () => {
    if (created.length === 0) throw new Error('Not initialized');
    return created[created.length - 1];
  };
  let failuresLeft = failingListens;
  const microservice = {
    unwrap: () => [{}, current().consumer, current().producer],
    listen: jest.fn(async () => {
      created.push(kafkaPair());
      if (failuresLeft-- > 0) throw new Error('connect ECONNREFUSED 127.0.0.1:9092');
    }),
  };
  return { microservice: microservice as unknown as INestMicroservice & typeof microservice, created, current };
}

const logger = () => ({ warn: jest.fn(), error: jest.fn() });

describe('keepConsumerRunning', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('starts the consumer, settles its first start once it joined, and tells it is in its group after its first fetch', async () => {
    const { microservice, current } = kafkaMicroservice();
    const log = logger();
    const membership = new ConsumerMembership();
    const run = keepConsumerRunning(microservice, membership, log, 1000);
    await expect(run.check()).rejects.toThrow('joining its group');
    await run.firstStart;
    expect(microservice.listen).toHaveBeenCalledTimes(1);
    expect(log.error).not.toHaveBeenCalled();
    await expect(run.check()).rejects.toThrow('joining its group');
    current().consumer.fetch();
    await expect(run.check()).resolves.toBeUndefined();
    expect(membership.inGroup).toBe(true);
    current().consumer.fetch();
    expect(membership.joins).toBe(1);
  });

  it('is out of its group from a rebalance until the fetch after its rejoin', async () => {
    const { microservice, current } = kafkaMicroservice();
    const membership = new ConsumerMembership();
    const run = keepConsumerRunning(microservice, membership, logger(), 1000);
    await run.firstStart;
    current().consumer.fetch();
    current().consumer.rebalance();
    await expect(run.check()).rejects.toThrow('rejoining its group (rebalance)');
    expect(membership.inGroup).toBe(false);
    current().consumer.join();
    expect(membership.inGroup).toBe(false);
    current().consumer.fetch();
    expect(membership.inGroup).toBe(true);
    expect(membership.joins).toBe(2);
  });

  it('starts the consumer again after kafkajs gives up on it, and watches the new one', async () => {
    const { microservice, created, current } = kafkaMicroservice();
    const log = logger();
    await keepConsumerRunning(microservice, new ConsumerMembership(), log, 1000).firstStart;

    created[0].consumer.crash(false);
    expect(microservice.listen).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(1000);
    expect(microservice.listen).toHaveBeenCalledTimes(2);
    expect(created[0].producer.disconnect).toHaveBeenCalled();
    expect(log.error).toHaveBeenCalledWith(expect.stringContaining('Failed to find group coordinator'));
    expect(log.warn).toHaveBeenCalledWith('Kafka consumer started again');

    current().consumer.crash(false);
    await jest.advanceTimersByTimeAsync(1000);
    expect(microservice.listen).toHaveBeenCalledTimes(3);
  });

  it('leaves restarts kafkajs makes itself alone', async () => {
    const { microservice, current } = kafkaMicroservice();
    const run = keepConsumerRunning(microservice, new ConsumerMembership(), logger(), 1000);
    await run.firstStart;
    current().consumer.fetch();
    current().consumer.crash(true);
    await expect(run.check()).rejects.toThrow('rejoining its group (Failed to find group coordinator)');
    current().consumer.join();
    current().consumer.fetch();
    await expect(run.check()).resolves.toBeUndefined();
    await jest.advanceTimersByTimeAsync(60_000);
    expect(microservice.listen).toHaveBeenCalledTimes(1);
  });

  it('settles the first start while Kafka is unreachable, and keeps trying, backing off, until the consumer runs', async () => {
    const { microservice, created, current } = kafkaMicroservice(4);
    const log = logger();
    const run = keepConsumerRunning(microservice, new ConsumerMembership(), log, 1000);
    await run.firstStart;
    await expect(run.check()).rejects.toThrow('not started (connect ECONNREFUSED 127.0.0.1:9092); retrying');
    expect(microservice.listen).toHaveBeenCalledTimes(1);
    expect(log.error).toHaveBeenLastCalledWith(expect.stringContaining('ECONNREFUSED 127.0.0.1:9092); retrying in 1000 ms'));

    await jest.advanceTimersByTimeAsync(1000);
    expect(microservice.listen).toHaveBeenCalledTimes(2);
    // The half-started consumer of a failed start is closed before the next one.
    expect(created[0].consumer.disconnect).toHaveBeenCalled();
    expect(created[0].producer.disconnect).toHaveBeenCalled();
    expect(log.error).toHaveBeenLastCalledWith(expect.stringContaining('retrying in 2000 ms'));
    await jest.advanceTimersByTimeAsync(2000 + 4000);
    expect(microservice.listen).toHaveBeenCalledTimes(4);
    expect(log.warn).not.toHaveBeenCalled();
    // The back-off stops growing at 5 s: once Kafka is back, the consumer is at most 5 s late.
    expect(log.error).toHaveBeenLastCalledWith(expect.stringContaining('retrying in 5000 ms'));
    await jest.advanceTimersByTimeAsync(4999);
    expect(microservice.listen).toHaveBeenCalledTimes(4);
    await jest.advanceTimersByTimeAsync(1);
    expect(microservice.listen).toHaveBeenCalledTimes(5);
    expect(log.warn).toHaveBeenCalledWith('Kafka consumer started again');
    current().consumer.fetch();
    await expect(run.check()).resolves.toBeUndefined();
    await jest.advanceTimersByTimeAsync(60_000);
    expect(microservice.listen).toHaveBeenCalledTimes(5);
  });

  it('does not start again once the service is stopping', async () => {
    const { microservice, current } = kafkaMicroservice();
    const run = keepConsumerRunning(microservice, new ConsumerMembership(), logger(), 1000);
    await run.firstStart;
    current().consumer.crash(false);
    run.stop();
    await jest.advanceTimersByTimeAsync(60_000);
    expect(microservice.listen).toHaveBeenCalledTimes(1);
  });
});
