import { EventEmitter } from 'node:events';
import type { INestMicroservice } from '@nestjs/common';
import { restartCrashedConsumer } from './restart-crashed-consumer';

/** A kafkajs consumer and producer as far as the restart needs them. */
function kafkaPair() {
  const emitter = new EventEmitter();
  const consumer = {
    events: { CRASH: 'consumer.crash' },
    on: (event: string, listener: (event: unknown) => void) => emitter.on(event, listener),
    disconnect: jest.fn(async () => undefined),
    crash: (restart: boolean) =>
      emitter.emit('consumer.crash', { payload: { error: new Error('Failed to find group coordinator'), groupId: 'delivery-service', restart } }),
  };
  return { consumer, producer: { disconnect: jest.fn(async () => undefined) } };
}

/** Like Nest's Kafka server, every listen() creates a new consumer and producer. */
function kafkaMicroservice(failingListens = 0) {
  let current = kafkaPair();
  const created = [current];
  let failuresLeft = failingListens;
  const microservice = {
    unwrap: () => [{}, current.consumer, current.producer],
    listen: jest.fn(async () => {
      current = kafkaPair();
      created.push(current);
      if (failuresLeft-- > 0) throw new Error('connect ECONNREFUSED 127.0.0.1:9092');
    }),
  };
  return { microservice: microservice as unknown as INestMicroservice & typeof microservice, created, current: () => current };
}

const logger = () => ({ warn: jest.fn(), error: jest.fn() });

describe('restartCrashedConsumer', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('starts the consumer again after kafkajs gives up on it, and watches the new one', async () => {
    const { microservice, created, current } = kafkaMicroservice();
    const log = logger();
    restartCrashedConsumer(microservice, log, 1000);

    created[0].consumer.crash(false);
    expect(microservice.listen).not.toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(1000);
    expect(microservice.listen).toHaveBeenCalledTimes(1);
    expect(created[0].producer.disconnect).toHaveBeenCalled();
    expect(log.error).toHaveBeenCalledWith(expect.stringContaining('Failed to find group coordinator'));
    expect(log.warn).toHaveBeenCalledWith('Kafka consumer started again');

    current().consumer.crash(false);
    await jest.advanceTimersByTimeAsync(1000);
    expect(microservice.listen).toHaveBeenCalledTimes(2);
  });

  it('leaves restarts kafkajs makes itself alone', async () => {
    const { microservice, created } = kafkaMicroservice();
    restartCrashedConsumer(microservice, logger(), 1000);
    created[0].consumer.crash(true);
    await jest.advanceTimersByTimeAsync(60_000);
    expect(microservice.listen).not.toHaveBeenCalled();
  });

  it('keeps trying, backing off, while Kafka is unreachable', async () => {
    const { microservice, created } = kafkaMicroservice(3);
    const log = logger();
    restartCrashedConsumer(microservice, log, 1000);
    created[0].consumer.crash(false);

    await jest.advanceTimersByTimeAsync(1000);
    expect(microservice.listen).toHaveBeenCalledTimes(1);
    expect(log.error).toHaveBeenLastCalledWith(expect.stringContaining('retrying in 2000 ms'));
    await jest.advanceTimersByTimeAsync(2000);
    expect(microservice.listen).toHaveBeenCalledTimes(2);
    // The half-started consumer of a failed attempt is closed before the next one.
    expect(created[1].consumer.disconnect).toHaveBeenCalled();
    expect(created[1].producer.disconnect).toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(4000 + 8000);
    expect(microservice.listen).toHaveBeenCalledTimes(4);
    expect(log.warn).toHaveBeenCalledWith('Kafka consumer started again');
  });

  it('does not restart once the service is stopping', async () => {
    const { microservice, created } = kafkaMicroservice();
    const stop = restartCrashedConsumer(microservice, logger(), 1000);
    created[0].consumer.crash(false);
    stop();
    await jest.advanceTimersByTimeAsync(60_000);
    expect(microservice.listen).not.toHaveBeenCalled();
  });
});
