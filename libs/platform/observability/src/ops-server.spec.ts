import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startOpsServer, type ReadinessCheck } from './ops-server';

const ok = async () => undefined;
const down = (reason: string) => async () => {
  throw new Error(reason);
};

describe('the ops port’s /readyz', () => {
  // One server per process (it registers the default metrics), its checks set by each test.
  let database: ReadinessCheck = ok;
  let kafka: ReadinessCheck = ok;
  let server: Server;
  beforeAll(async () => {
    server = await startOpsServer({ port: 0, host: '127.0.0.1' }, { required: { database: () => database() }, optional: { kafka: () => kafka() } });
  });
  afterAll(() => server.close());

  async function readyz() {
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/readyz`);
    return { status: response.status, body: await response.json() };
  }

  it('is ready when every dependency answers', async () => {
    [database, kafka] = [ok, ok];
    expect(await readyz()).toEqual({ status: 200, body: { status: 'ready', checks: { database: 'ok', kafka: 'ok' } } });
  });

  it('stays 200, degraded, naming the reason, when an optional dependency fails', async () => {
    [database, kafka] = [ok, down('Connection error: connect ECONNREFUSED')];
    expect(await readyz()).toEqual({ status: 200, body: { status: 'degraded', checks: { database: 'ok', kafka: 'Connection error: connect ECONNREFUSED' } } });
  });

  it('is not ready when a required dependency fails or takes longer than 2 s', async () => {
    [database, kafka] = [() => new Promise<void>(() => undefined), down('down')];
    expect(await readyz()).toEqual({ status: 503, body: { status: 'not ready', checks: { database: 'timed out after 2000 ms', kafka: 'down' } } });
  });

  it('publishes what every check answered on /metrics, for the alerts', async () => {
    [database, kafka] = [down('ECONNREFUSED'), ok];
    const metrics = await (await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`)).text();
    expect(metrics).toContain('trilha_readiness_check{check="database"} 0');
    expect(metrics).toContain('trilha_readiness_check{check="kafka"} 1');
  });
});
