import { DataSource } from 'typeorm';
import { createKafka, dataSourceOptions, ParkedMessages, type DomainEvent, type ParkedMessage } from '@trilha/event-store';
import type { ServiceSpec } from './service-spec';

const USAGE = 'usage: main.js parked list [--all] | main.js parked replay [id…]';

/** How a parked message reads on an operator's terminal: one line, then its value. */
function describe(message: ParkedMessage): string {
  const value = message.value === null ? '(no value)' : message.value.toString('utf8');
  return [
    `#${message.id} ${message.parkedAt.toISOString()} ${message.consumer} ${message.topic}[${message.partition}]@${message.offset}` +
      ` key=${message.key ?? '-'} trace=${message.traceId ?? '-'}${message.replayedAt ? ` replayed=${message.replayedAt.toISOString()}` : ''}`,
    `  reason: ${message.reason}`,
    `  value:  ${value.length > 500 ? `${value.slice(0, 500)}… (${message.value!.length} bytes)` : value}`,
  ].join('\n');
}

/**
 * `main.js parked list [--all]`: the messages the service's consumers parked and that wait for a
 * replay (with --all, the replayed ones too). `main.js parked replay [id…]`: hands those messages
 * (or every waiting one) back to their consumers through Kafka, once the cause is fixed.
 */
export async function parkedCommand<E extends DomainEvent>(spec: ServiceSpec<E>, args: string[]): Promise<void> {
  const [action, ...rest] = args;
  if (action !== 'list' && action !== 'replay') throw new Error(USAGE);
  const ids = rest.filter((arg) => arg !== '--all');
  if (action === 'list' ? ids.length > 0 : rest.includes('--all') || ids.some((id) => !/^\d+$/.test(id))) throw new Error(USAGE);
  const dataSource = await new DataSource(dataSourceOptions(spec.database)).initialize();
  try {
    const parked = new ParkedMessages(dataSource);
    if (action === 'list') {
      const messages = await parked.list({ all: rest.includes('--all') });
      for (const message of messages) process.stdout.write(`${describe(message)}\n`);
      process.stderr.write(`${spec.service.name}: ${messages.length} parked message(s)${rest.includes('--all') ? '' : ' waiting for a replay'}\n`);
      return;
    }
    const replayed = await parked.replay(createKafka(spec.kafka, `${spec.service.name}-parked-replay`), ids);
    for (const message of replayed) process.stderr.write(`${spec.service.name}: replayed #${message.id} to ${message.consumer} (${message.topic}[${message.partition}])\n`);
    process.stderr.write(`${spec.service.name}: ${replayed.length} message(s) replayed\n`);
  } finally {
    await dataSource.destroy();
  }
}
