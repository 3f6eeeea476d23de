// `npm start`: the whole stack in the foreground until Ctrl-C. Data stays in .trilha/local.
import { resolve } from 'node:path';
import { PORT_PROFILES, stackPorts, startStack } from './stack.mjs';

const dataDir = resolve(import.meta.dirname, '..', process.env.TRILHA_DATA_DIR ?? '.trilha/local');
const ports = stackPorts(PORT_PROFILES.start);
const started = Date.now();

const stack = await startStack({ dataDir, ports, logLevel: process.env.LOG_LEVEL ?? 'info' }).catch((error) => {
  process.stderr.write(`\nTrilha failed to start: ${error.message}\n`);
  process.exit(1);
});

let stopping = false;
async function stop(signal) {
  if (stopping) return;
  stopping = true;
  process.stderr.write(`\n${signal}: stopping Trilha…\n`);
  await stack.stop();
  process.stderr.write('stopped.\n');
  process.exit(0);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));

process.stdout.write(`
  Base URL      ${stack.baseUrl}
  API docs      ${stack.baseUrl}/docs
  Traces        ${stack.zipkin.url}/zipkin/   (Zipkin: every span of every service; docs/TRACES.md)
  Alerts        ${stack.prometheus.url}/alerts   (Prometheus: the services' metrics and the chart's alerts; docs/RUNBOOKS.md)
  Admin key     ${stack.adminApiKey}   (header X-Admin-Key)
  Certificate   ${stack.caFile}   (self-signed; curl --cacert it)
  Logs          ${dataDir}/logs/
  Kafka         ${stack.infra.kafkaBrokers}   (SASL_SSL: ${stack.infra.kafkaSaslSsl.brokers}, user ${stack.infra.kafkaSaslSsl.username}, CA ${stack.infra.kafkaSaslSsl.caFile})
  PostgreSQL    ${stack.infra.databaseUrl.replace(/:[^:@/]+@/, ':***@')}
  Redis         ${stack.infra.redisUrl}

Trilha is ready (${((Date.now() - started) / 1000).toFixed(1)} s). Press Ctrl-C to stop.
`);
