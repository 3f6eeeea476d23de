// The ceiling's report (ceiling.mjs): its heading, each phase's lines from what the phase
// measured, and the comparison of a benchmark's figures with the ceiling's.
import { latencyLine } from '../latency.mjs';
import { describeMachine, postgresPerUnit } from '../machine.mjs';

/** A loop's errors, each with its count: `error×n, …`. */
const errorList = (errors) => [...errors].map(([e, n]) => `${e}×${n}`).join(', ');

/** The heading: the `roles` (entries of ceiling.mjs's ROLES) in pipeline order, the date and machine (`facts`), PostgreSQL's version (`server`). */
export const headerLines = ({ roles, facts, server, settings }) => [
  `Ceiling: bare parts, one process per role — ${roles.map((role) => role.name).join(' → ')}`,
  `  date            ${facts.date}`,
  `  machine         ${describeMachine(facts)}; load average before start ${facts.loadAverage}`,
  `  infrastructure  PostgreSQL ${server.version} (fsync on, synchronous_commit on), Kafka one broker, topic of ${settings.partitions} partitions keyed by ${settings.stores} stores, ${settings.payload} B padding per event`,
  ...roles.map((role) => `  ${role.name.padEnd(19)} ${role.describe(settings)}`),
];

/** The capacity phase: role 1's answers, and with the receiver (`delivery`) what reached it and the backlog left. */
export function capacityLines({ settings, duration, warmup, loop, figure, delivery }) {
  const lines = [
    `Capacity (closed loop, ${settings.connections} connections, ${duration} s after ${warmup} s warm-up)`,
    `  accepted        ${figure.acceptedRate.toFixed(0)} events/s committed by role 1 (${loop.statuses.get(202) ?? 0} in ${loop.elapsed.toFixed(1)} s); answers ${latencyLine(loop.latencies)}${loop.errors.size ? `; errors ${errorList(loop.errors)}` : ''}`,
  ];
  if (delivery) {
    const limit = figure.deliveredRate < figure.acceptedRate * 0.95 ? 'behind role 1 (relay, Kafka or consumer): the backlog grew' : 'role 1 and what it shares with the rest (the machine\'s cores, PostgreSQL)';
    lines.push(
      `  delivered       ${figure.deliveredRate.toFixed(0)} events/s reached the receiver in the same window (${delivery.delivered})`,
      `  capacity        ${figure.capacity.toFixed(0)} events/s end to end; limit: ${limit}`,
      `  backlog at end  ${delivery.left} in the outbox, ${delivery.notYet} accepted not yet received; ${delivery.missing} still missing after ${settings.drain} s`,
    );
  }
  lines.push(`  CPU (measured)  ${figure.used.text}`);
  return lines;
}

/** The rate phase: the load achieved, with the receiver (`withReceiver`) the latencies to it, role 1's answers, and the CPU per event of `costGroups`. */
export function rateLines({ settings, duration, warmup, loop, refused, events, costGroups, withReceiver, figure }) {
  const { offered, latencies, consumed, missing, twice, perEvent, pipelineMs, used } = figure;
  return [
    `Fixed rate (open loop)`,
    `  offered load    ${offered} events/s for ${duration} s after ${warmup} s warm-up`,
    `  achieved rate   ${(loop.requests / loop.sendSeconds).toFixed(1)} events/s sent in the measured window (${loop.requests} in ${loop.sendSeconds.toFixed(1)} s), ${refused} not answered 202${loop.errors.size ? `, errors ${errorList(loop.errors)}` : ''}`,
    ...(withReceiver ? [
      `  received        ${latencies.length} of ${events} committed, ${missing} missing after ${settings.drain} s, ${twice} received twice (whole run so far)`,
      `  latency         request sent → received: ${latencyLine(latencies)}`,
      `  consumed        commit → role 3's inbox row: ${latencyLine(consumed)} (processed_at − occurred_at, PostgreSQL's clock)`,
    ] : []),
    `  role 1 answers  ${latencyLine(loop.latencies)}`,
    `  CPU (measured)  ${used.text}`,
    `  CPU per event   ${costGroups.map((group) => `${group} ${(perEvent.get(group) ?? 0).toFixed(3)} ms`).join(', ')}`,
    `                  total ${pipelineMs.toFixed(3)} ms${withReceiver ? `; with the receiver ${(pipelineMs + (perEvent.get('receiver') ?? 0)).toFixed(3)} ms` : ''} (${events} events in ${used.seconds.toFixed(1)} s)`,
    `  PostgreSQL for  ${postgresPerUnit(used, events / used.seconds)} per event`,
  ];
}

/** The backlog phase: `events` produced, `received` of them within `timeoutSeconds`, and the steady rate (`flow`). */
export const backlogLines = ({ events, received, timeoutSeconds, flow, figure }) => [
  `Backlog (${events} events produced at once to the topic, keyed by store)`,
  `  delivered       ${received} of ${events} (${figure.missing} missing${figure.missing ? ` after ${timeoutSeconds} s` : ''}, ${figure.twice} received twice)`,
  `  throughput      ${flow.rate.toFixed(0)} deliveries/s between 10 % and 90 % of the events; ${flow.line}`,
  `  CPU (whole run) ${figure.used.text}`,
];

/** The ceiling's report, then each of `comparisons` ([label, text]: a figure beside the ceiling's, with its ratio). */
export const ceilingReport = (ceiling, comparisons) => [
  '',
  ...ceiling.lines,
  '',
  'Against the ceiling (same run)',
  ...comparisons.map(([label, text]) => `  ${label.padEnd(15)} ${text}`),
];
