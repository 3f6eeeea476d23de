import { Logger as NestLogger, type INestApplication, type INestMicroservice } from '@nestjs/common';
import { Kafka, Partitioners } from 'kafkajs';
import { Logger } from 'nestjs-pino';
import { DataSource } from 'typeorm';
import { getDataSourceToken } from '@nestjs/typeorm';
import { ConsumerMembership, dataSourceOptions, KafkaServer, kafkaClientConfig, migrate, rebuildProjections, type DomainEvent } from '@trilha/event-store';
import { startOpsServer } from '@trilha/observability';
import { measureConsumerLag } from './consumer-lag';
import { createTopics } from './create-topics';
import { keepConsumerRunning } from './keep-consumer-running';
import { kafkaReachability } from './kafka-reachability';
import { parkedCommand } from './parked-command';
import type { ServiceCommand, ServiceSpec } from './service-spec';

/**
 * The life of every service process: `main.js migrate` applies the migrations and exits;
 * `main.js rebuild-projections [name…]` rebuilds read models from the event log and exits;
 * `main.js parked list [--all]` and `main.js parked replay [id…]` show and replay the Kafka
 * messages the service's consumers parked; `main.js <command>` runs one of the service's own
 * `commands` and exits; otherwise the app initialises (its database reached), its ports open,
 * and its Kafka consumer joins its group in the background (never before the app is ready;
 * while Kafka does not answer, until it does). SIGTERM and SIGINT close everything in reverse order.
 */
export async function runService<E extends DomainEvent>(spec: ServiceSpec<E>): Promise<void> {
  if (process.argv[2] === 'migrate') {
    const applied = await migrate(spec.database);
    process.stderr.write(`${spec.service.name}: ${applied.length ? `applied ${applied.join(', ')}` : 'schema up to date'}\n`);
    return;
  }
  if (process.argv[2] === 'rebuild-projections') {
    await rebuild(spec, process.argv.slice(3));
    return;
  }
  if (process.argv[2] === 'parked') {
    await parkedCommand(spec, process.argv.slice(3));
    return;
  }
  const command = spec.commands?.[process.argv[2]];
  if (command) {
    await runCommand(spec, command, process.argv.slice(3));
    return;
  }
  const started = Date.now();
  const app = await spec.createApp();
  app.useLogger(app.get(Logger));
  app.flushLogs();
  app.enableShutdownHooks();
  // From here on Nest's shutdown hooks close the app in order.
  process.removeListener('SIGTERM', exitBeforeStart).removeListener('SIGINT', exitBeforeStart);
  const logger = new NestLogger(spec.service.name);
  const consumerGroup = spec.consumer?.groupId ?? spec.service.name;
  const consumer = spec.service.consumes.length > 0 ? connectConsumer(app, spec, consumerGroup) : undefined;
  await app.init();
  // One attempt per check: the probes and scrapes repeat it, and a check must not sit in a
  // retry back-off while Kafka is already back.
  const admin = new Kafka({ ...kafkaClientConfig(spec.kafka, `${spec.service.name}-readiness`), retry: { retries: 0 } }).admin();
  const kafkaAnswers = kafkaReachability(admin);
  // The consumer joins its group in the background: the service serves as soon as its database
  // answers (a restarted process's group may wait for its dead predecessor's session to end).
  // Meanwhile /readyz says `degraded` with the consumer's state, and what the consumer feeds
  // knows it is not in its group yet (`ConsumerMembership`).
  const consumerRun = consumer && keepConsumerRunning(consumer, app.get(ConsumerMembership), logger);
  if (consumer) measureConsumerLag(admin, consumerGroup, spec.service.consumes);

  const dataSource = app.get<DataSource>(getDataSourceToken());
  const ops = await startOpsServer({ port: spec.opsPort, host: spec.listenAddress }, {
    required: {
      database: async () => {
        await dataSource.query('SELECT 1');
      },
    },
    optional: { kafka: kafkaAnswers, ...(consumerRun && { consumer: consumerRun.check }) },
  });
  await spec.listen?.(app);
  logger.log(`${spec.service.name} ready in ${Date.now() - started} ms (ops port ${spec.opsPort})`);

  const stop = async (signal: string) => {
    logger.log(`${spec.service.name} stopping (${signal})`);
    // Closing waits on the database and Kafka (attempts in flight recorded, the outbox drained):
    // when they do not answer, the process still ends, and what it could not record is
    // redone once its lease ends. Unref'd: a shutdown that finishes does not wait for it.
    setTimeout(() => {
      logger.error(`${spec.service.name} did not stop within ${SHUTDOWN_DEADLINE_MS / 1000} s: exiting`);
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS).unref();
    consumerRun?.stop();
    ops.close();
    await admin.disconnect().catch(() => undefined);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}

/**
 * How long a stopping process may take: within Kubernetes' 30 s grace period after the 5 s
 * `preStop` pause, and longer than the delivery service's drain (an attempt in flight times out
 * after 10 s, then is recorded).
 */
const SHUTDOWN_DEADLINE_MS = 15_000;

/**
 * How long a consumer group waits for a member (docs/ARCHITECTURE.md, failure modes). A member
 * that stops heartbeating (killed, hung) leaves its group after `sessionTimeout`: until then a
 * rebalance (a restarted process joining, a replica added) holds every member of the group,
 * so this bounds the pause one crash causes. 6 s is the broker's smallest allowed session
 * (`group.min.session.timeout.ms`, 6 s by default). kafkajs heartbeats between batches only,
 * at most every `heartbeatInterval`: a batch that holds the consumer longer than the session
 * (a database outage, where handlers retry) costs a rebalance, and its redelivery is absorbed
 * by the inbox. A live member rejoins a rebalance within `rebalanceTimeout` or is dropped.
 */
const GROUP_TIMEOUTS = { sessionTimeout: 6000, heartbeatInterval: 1000, rebalanceTimeout: 10_000 };

/**
 * How often a consumer commits the offsets it resolved, rather than after every fetch (kafkajs
 * holds to it after a batch only with patches/kafkajs+2.2.4.patch): a redelivery after a crash
 * is absorbed by the inbox, and the broker is spared a write per fetched partition.
 */
export const OFFSET_COMMIT_INTERVAL_MS = 1000;

/**
 * The Kafka consumer of the app's message controllers, in `groupId` (the one `spec.consumer`
 * names, the service's own by default). The topics they read must be the ones the service's definition
 * declares: a controller added without a declaration, or a declaration left without a
 * controller, stops the start.
 */
function connectConsumer<E extends DomainEvent>(app: INestApplication, spec: ServiceSpec<E>, groupId: string): INestMicroservice {
  const { fromBeginning = true, partitions = 1, fetchMinBytes = 1 } = spec.consumer ?? {};
  const server = new KafkaServer({
    postfixId: '',
    client: kafkaClientConfig(spec.kafka, groupId),
    // A fetch returns as soon as a message is there (or `fetchMinBytes` of them), and an idle
    // one waits up to 500 ms on the broker (Kafka's own defaults): a lone event is read at
    // once, and an idle consumer asks twice a second. Every fetch costs the broker CPU
    // whether it brings anything or not (docs/BENCHMARKS.md, the event pipeline against its ceiling).
    consumer: { groupId, allowAutoTopicCreation: false, minBytes: fetchMinBytes, maxWaitTimeInMs: 500, ...GROUP_TIMEOUTS },
    subscribe: { fromBeginning },
    run: { partitionsConsumedConcurrently: partitions, autoCommitInterval: OFFSET_COMMIT_INTERVAL_MS },
    producer: { createPartitioner: Partitioners.DefaultPartitioner },
  });
  const microservice = app.connectMicroservice({ strategy: server });
  const read = [...server.getHandlers().keys()].sort();
  const declared = [...spec.service.consumes].sort();
  if (read.join() !== declared.join()) {
    throw new Error(`${spec.service.name} declares it consumes ${declared.join(', ')}, but its message controllers read ${read.join(', ') || 'no topic'}`);
  }
  return microservice;
}

/**
 * Until the app installs its shutdown hooks, a signal ends the process at once (as PID 1 in a
 * container, a signal without a handler would be ignored and the pod would wait out its grace
 * period). Migrations run in one transaction per migration, so stopping mid-way is safe.
 */
function exitBeforeStart(signal: NodeJS.Signals): void {
  process.stderr.write(`${signal} before start-up finished: exiting\n`);
  process.exit(128 + (signal === 'SIGINT' ? 2 : 15));
}

/**
 * Runs an entry point, turning a start-up failure into one clear log line and exit code 1.
 * `main.js create-topics` creates the Kafka topics instead: it needs only the Kafka settings, so
 * it runs before the service reads its own.
 */
export function main(run: () => Promise<void>): void {
  process.once('SIGTERM', exitBeforeStart).once('SIGINT', exitBeforeStart);
  (process.argv[2] === 'create-topics' ? createTopics : run)().catch((error: Error) => {
    process.stderr.write(`${JSON.stringify({ level: 'fatal', msg: 'start-up failed', error: error.message, stack: error.stack })}\n`);
    process.exit(1);
  });
}

async function runCommand<E extends DomainEvent>(spec: ServiceSpec<E>, command: ServiceCommand, args: string[]): Promise<void> {
  const dataSource = await new DataSource(dataSourceOptions(spec.database)).initialize();
  try {
    await command(dataSource, args, (line) => process.stderr.write(`${spec.service.name}: ${line}\n`));
  } finally {
    await dataSource.destroy();
  }
}

async function rebuild<E extends DomainEvent>(spec: ServiceSpec<E>, names: string[]): Promise<void> {
  const all = spec.service.projections.map((Projection) => new Projection());
  const unknown = names.filter((name) => !all.some((projection) => projection.name === name));
  if (unknown.length > 0) throw new Error(`unknown projection ${unknown.join(', ')}; ${spec.service.name} has: ${all.map((p) => p.name).join(', ') || 'none'}`);
  const chosen = names.length > 0 ? all.filter((projection) => names.includes(projection.name)) : all;
  const dataSource = await new DataSource(dataSourceOptions(spec.database)).initialize();
  try {
    const counts = await rebuildProjections(dataSource, chosen, (line) => process.stderr.write(`${spec.service.name}: ${line}\n`));
    process.stderr.write(`${spec.service.name}: rebuilt ${Object.entries(counts).map(([name, count]) => `${name} (${count} events)`).join(', ') || 'nothing'}\n`);
  } finally {
    await dataSource.destroy();
  }
}
