// Redis for local runs and tests: Debian's redis-server on 127.0.0.1, without persistence
// (every start is empty). Dependency-free: only node: builtins.
//
//   redisBin()                               the redis-server binary, or null
//   startRedis({ dataDir, ports, log })      { proc, url }

import fs from 'node:fs';
import path from 'node:path';
import { isExecutableFile, launchUntilReady, secs, tcpExchange, which } from './processes.mjs';

const REDIS_START_TIMEOUT_MS = 20_000;

export function redisBin() {
  return which('redis-server') || (isExecutableFile('/usr/bin/redis-server') ? '/usr/bin/redis-server' : null);
}

async function redisPingOk(host, port) {
  const res = await tcpExchange(port, Buffer.from('*1\r\n$4\r\nPING\r\n'), (b) => b.includes('\r\n'), { host });
  return res != null && res.toString('utf8').startsWith('+PONG');
}

/** The server a previous run in dataDir may have left running (stopLeftovers in processes.mjs). */
export const redisLeftovers = (dataDir) => [
  { name: 'redis', comm: 'redis-server', file: path.join(dataDir, 'redis.pid'), signal: 'SIGTERM' },
];

/** Starts redis-server with its working directory <dataDir>/redis and waits until it answers PING. */
export async function startRedis({ dataDir, host, ports, log }) {
  const t0 = Date.now();
  const dir = path.join(dataDir, 'redis');
  fs.mkdirSync(dir, { recursive: true });
  const proc = await launchUntilReady({
    name: 'redis',
    cmd: redisBin(),
    args: [
      '--port', String(ports.redis),
      '--bind', host,
      // Off the loopback only on a local cluster's pod bridge, which no other machine reaches:
      // without a password, protected mode would refuse the pods.
      '--protected-mode', host === '127.0.0.1' ? 'yes' : 'no',
      '--dir', dir,
      '--save', '',
      '--appendonly', 'no',
      '--daemonize', 'no',
      '--logfile', '',
    ],
    cwd: dir,
    logFile: path.join(dataDir, 'redis.log'),
    pidFile: path.join(dataDir, 'redis.pid'),
    stopSignal: 'SIGTERM',
    check: () => redisPingOk(host, ports.redis),
    timeoutMs: REDIS_START_TIMEOUT_MS,
    log,
  });
  log(`redis: ready on ${host}:${ports.redis} (${secs(t0)})`);
  return { proc, url: `redis://${host}:${ports.redis}` };
}
