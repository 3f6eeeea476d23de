import { readFileSync } from 'node:fs';

/** The running test stack, as tools/test.mjs describes it in TRILHA_STACK_FILE. */
export interface TestStack {
  dataDir: string;
  baseUrl: string;
  adminApiKey: string;
  caFile: string;
  /** Every port the stack listens on (tools/stack.mjs, stackPorts). */
  ports: {
    gateway: number;
    kafka: number;
    kafkaController: number;
    kafkaSaslSsl: number;
    postgres: number;
    redis: number;
    zipkin: number;
    prometheus: number;
    ops: Record<string, number>;
    internal: Record<string, number>;
  };
  infra: {
    databaseUrl: string;
    kafkaBrokers: string;
    /** The broker's SASL_SSL listener (deploy/local/kafka.mjs): TLS with its own CA, SASL PLAIN or SCRAM. */
    kafkaSaslSsl: { brokers: string; caFile: string; username: string; password: string; mechanisms: string[] };
    redisUrl: string;
  };
  env: Record<string, Record<string, string>>;
  /** The stack's Zipkin (deploy/local/zipkin.mjs): UI at /zipkin/, API at /api/v2/. */
  zipkinUrl: string;
  /** The stack's Prometheus (deploy/local/prometheus.mjs): scrapes the ops ports and evaluates the chart's alerts every second. */
  prometheusUrl: string;
  /** tools/test.mjs's control endpoint: POST /stop/<kafka|postgres|redis>, /start/<…>, /restart/<…>?downMs=… */
  controlUrl: string;
  /** Schemathesis' `st` command (tools/schemathesis.mjs). */
  schemathesis: string;
  /** The kubeconfig of a Kubernetes control plane beside the stack (deploy/cluster/control-plane.mjs): an API server, no node. */
  kubeconfig: string;
}

export type InfraComponent = 'kafka' | 'postgres' | 'redis';

async function control(stack: TestStack, path: string, what: string): Promise<void> {
  const response = await fetch(`${stack.controlUrl}${path}`, { method: 'POST' });
  if (response.status !== 204) throw new Error(`${what} failed: ${await response.text()}`);
}

/** Stops a component of the stack for `downMs`, then starts it again on the same data. */
export function restartInfra(stack: TestStack, component: InfraComponent, downMs = 0): Promise<void> {
  return control(stack, `/restart/${component}?downMs=${downMs}`, `restarting ${component}`);
}

/** Stops a component of the stack until `startInfra`: a test that calls it starts it again in a `finally`. */
export function stopInfra(stack: TestStack, component: InfraComponent): Promise<void> {
  return control(stack, `/stop/${component}`, `stopping ${component}`);
}

/** Starts a component stopped with `stopInfra` again, on the same data; nothing if it runs. */
export function startInfra(stack: TestStack, component: InfraComponent): Promise<void> {
  return control(stack, `/start/${component}`, `starting ${component}`);
}

let cached: TestStack | undefined;

export function testStack(): TestStack {
  if (cached) return cached;
  const file = process.env.TRILHA_STACK_FILE;
  if (!file) throw new Error('TRILHA_STACK_FILE is not set: run integration and end-to-end tests through `npm test`.');
  cached = JSON.parse(readFileSync(file, 'utf8')) as TestStack;
  return cached;
}
