// Benchmark: the pipeline's ceiling — the physical limit of this design (a commit with its
// outbox row → relay → Kafka → consumer with its inbox row → HTTPS webhook) on this machine,
// built from nothing but the bare parts, one process per role (bench/lib/pipeline/), on the same
// infrastructure as the stack and none of the platform's code.
//
//   node bench/pipeline-ceiling.mjs [--mode=both|rate|capacity --rate=200 --duration=20 --warmup=5 --connections=64 ...]
//   node bench/pipeline-ceiling.mjs --help
//
// Phases: `rate` (open loop at --rate: latency, and CPU per event of every process) and
// `capacity` (closed loop of --connections: events/s that reach the receiver at saturation);
// `both` runs rate, then capacity. The other benchmarks measure the same ceiling, or the part of
// it that matches what they measure, in their own run, beside the platform.
import { parseArgs, say } from './lib/bench-kit.mjs';
import { CEILING_DEFAULTS, measureCeiling } from './lib/pipeline/ceiling.mjs';

const DEFAULTS = { mode: 'both', rate: 200, duration: 20, warmup: 5, ...CEILING_DEFAULTS, keep: false, help: false };

const HELP = `Usage: node bench/pipeline-ceiling.mjs [options]

The ceiling of the event pipeline on this machine: bare parts, one process per role, on the
stack's own infrastructure (PostgreSQL with fsync on, Kafka, HTTPS on loopback).
  role 1: HTTPS server (node:https + pg), a request commits an event row and its outbox row
  role 2: relay (kafkajs + pg), outbox → Kafka topic keyed by store, in order, batched
  role 3: consumer (kafkajs + pg + https), an inbox row per message, then POST to the receiver
  receiver: node:https, records arrival time; latency = request sent → arrival at the receiver

Options (defaults in brackets):
  --mode=both|rate|capacity  rate: open loop at --rate (latency, CPU per event); capacity:
                             closed loop (events/s at saturation); both: rate, then capacity [${DEFAULTS.mode}]
  --rate=N                   events/s offered in the rate phase [${DEFAULTS.rate}]
  --duration=S               measured seconds of each phase [${DEFAULTS.duration}]
  --warmup=S                 warm-up seconds before each phase's measurement (excluded) [${DEFAULTS.warmup}]
  --connections=N            closed-loop connections in the capacity phase [${DEFAULTS.connections}]
  --stores=N                 distinct stores (Kafka keys) [${DEFAULTS.stores}]
  --partitions=N             partitions of the topic; role 3 consumes them all concurrently [${DEFAULTS.partitions}]
  --batch=N                  role 2: outbox rows per read and per produce request [${DEFAULTS.batch}]
  --poll-ms=N                role 2: pause after reading an empty outbox [${DEFAULTS['poll-ms']}]
  --pool=N                   role 1: PostgreSQL connections [${DEFAULTS.pool}]
  --fetch-min-bytes=N        role 3: bytes a fetch waits for (the platform's consumers: 1; the
                             atendimento service's: 16384) [${DEFAULTS['fetch-min-bytes']}]
  --fetch-max-wait-ms=N      role 3: longest a fetch waits for them (the platform's: 500) [${DEFAULTS['fetch-max-wait-ms']}]
  --consumer-order=partition|store  role 3: one message at a time per partition, or per store
                             (a fetched batch's stores concurrently) [${DEFAULTS['consumer-order']}]
  --delay=MS                 the receiver answers after this long [${DEFAULTS.delay}]
  --payload=N                padding bytes in each event's JSON [${DEFAULTS.payload}]
  --drain=S                  longest wait for the last events to reach the receiver after a phase [${DEFAULTS.drain}]
  --keep                     keep the data directory (PostgreSQL, Kafka, logs) at the end
  --help                     this text

Ports: the infrastructure's base ports in bench/lib/bench-kit.mjs (BASE_PORTS.ceiling), shifted
by TRILHA_PORT_OFFSET; the roles and the receiver listen on 127.0.0.1, on ports of the system's.
`;

if (process.argv.slice(2).some((arg) => arg === '--help' || arg === '-h' || arg.startsWith('--help='))) {
  process.stdout.write(HELP);
  process.exit(0);
}
const args = parseArgs(DEFAULTS);
const badOption = (message) => {
  say(`${message} (see --help)`);
  process.exit(2);
};
if (!['both', 'rate', 'capacity'].includes(args.mode)) badOption(`--mode is one of both, rate, capacity (got ${args.mode})`);
for (const key of ['rate', 'duration', 'connections', 'stores', 'partitions', 'batch', 'pool', 'fetch-max-wait-ms']) {
  if (!(args[key] > 0)) badOption(`--${key} must be above 0`);
}
if (!['partition', 'store'].includes(args['consumer-order'])) badOption(`--consumer-order is one of partition, store (got ${args['consumer-order']})`);
for (const key of ['warmup', 'poll-ms', 'fetch-min-bytes', 'delay', 'payload', 'drain']) if (!(args[key] >= 0)) badOption(`--${key} must be 0 or more`);

const settings = Object.fromEntries(Object.keys(CEILING_DEFAULTS).map((key) => [key, args[key]]));
measureCeiling({
  phases: args.mode === 'both' ? ['rate', 'capacity'] : [args.mode],
  rate: args.rate,
  duration: args.duration,
  warmup: args.warmup,
  settings,
  keep: args.keep,
}).then(
  ({ lines, clean }) => {
    process.stdout.write(['', ...lines, ''].join('\n'));
    process.exit(clean ? 0 : 1);
  },
  (error) => {
    say(`benchmark failed: ${error.stack ?? error.message}`);
    process.exit(1);
  },
);
