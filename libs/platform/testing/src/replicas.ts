import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { eventually } from './service-logs';
import type { TestStack } from './stack';

export interface Replica {
  name: string;
  child: ChildProcess;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

const root = resolve(__dirname, '../../../..');

/** The pid listening on a TCP port of this machine: a process of the stack, to stop or pause for real. */
export function pidOnPort(port: number): number {
  const line = execFileSync('ss', ['-ltnpH', `sport = :${port}`], { encoding: 'utf8' });
  const pid = /pid=(\d+)/.exec(line)?.[1];
  if (!pid) throw new Error(`no process listens on port ${port}: ${line}`);
  return Number(pid);
}

/**
 * Starts one more process of a service of the stack (a second replica, or a restart after a
 * kill), with the stack's environment plus `env`; waits for its /readyz. A gateway replica
 * consumes in a group of its own (its INSTANCE_ID) and may run beside other tests; a replica of
 * a service whose consumer group the stack's own process is in takes partitions from it, so only
 * a serial test (`*.serial.spec.ts`) starts one.
 */
export async function startReplica(stack: TestStack, service: string, name: string, env: Record<string, string>): Promise<Replica> {
  const serviceEnv = { ...stack.env[service], ...env };
  const log = openSync(join(stack.dataDir, 'logs', `${name}.log`), 'a');
  const child = spawn(process.execPath, [join(root, 'dist/apps', service, 'src/main.js')], {
    env: { ...process.env, ...serviceEnv },
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  const stop = (signal: NodeJS.Signals = 'SIGTERM') =>
    new Promise<void>((done) => {
      if (child.exitCode !== null || child.signalCode !== null) return done();
      child.once('exit', () => done());
      child.kill(signal);
    });
  await eventually(`${name} ready`, async () => {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}`);
    const response = await fetch(`http://127.0.0.1:${serviceEnv.OPS_PORT}/readyz`).catch(() => undefined);
    return response?.ok || undefined;
  }, 60_000, 200);
  return { name, child, stop };
}
