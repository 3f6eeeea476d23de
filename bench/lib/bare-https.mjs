// The ceiling of a read through the gateway (bench/tracking-read.mjs, bench/fila.mjs): a bare
// node:https server in a process of its own, answering one fixed body from memory with the
// stack's certificate, under the same closed loop as the platform.
import { spawn } from 'node:child_process';
import { httpsAgent, request } from './bench-stack.mjs';
import { describeResult } from './latency.mjs';
import { closedLoop } from './load-loops.mjs';
import { cpuMeter } from './machine.mjs';

/** Starts the server: resolves to { child, port }. */
export function startCeiling(certFile, keyFile, body) {
  const source = `
    const https = require('node:https');
    const fs = require('node:fs');
    const body = Buffer.from(process.env.BODY);
    https.createServer({ cert: fs.readFileSync(process.env.CERT), key: fs.readFileSync(process.env.KEY) }, (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
      res.end(body);
    }).listen(0, '127.0.0.1', function () { process.stdout.write(String(this.address().port) + '\\n'); });
    process.on('disconnect', () => process.exit(0));`;
  // The IPC channel only tells the child when this process is gone, however it ended.
  const child = spawn(process.execPath, ['-e', source], { env: { ...process.env, BODY: body, CERT: certFile, KEY: keyFile }, stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  return new Promise((resolvePort) => child.stdout.once('data', (chunk) => resolvePort({ child, port: Number(String(chunk).trim()) })));
}

/**
 * A closed loop of `connections` GETs of `url` for `duration` s after `warmup` s, with the CPU
 * of the stack and of `processes` (pid → name). Resolves to { result (describeResult), cpu }.
 */
export async function measureServer(stack, { url, processes }, { connections, duration, warmup }) {
  const dispatcher = httpsAgent(stack.caFile, connections);
  try {
    const meter = cpuMeter(stack, processes);
    meter.start();
    const result = describeResult(await closedLoop({
      connections,
      seconds: duration,
      warmupSeconds: warmup,
      send: async () => {
        const response = await request(url, { dispatcher });
        await response.body.arrayBuffer();
        return response.statusCode;
      },
    }));
    return { result, cpu: meter.stop() };
  } finally {
    await dispatcher.close();
  }
}

/** `measureServer` against a ceiling server answering `body`, started for it and stopped at the end. */
export async function measureBareServer(stack, body, options) {
  const { TLS_CERT_FILE, TLS_KEY_FILE } = stack.env['api-gateway'];
  const ceiling = await startCeiling(TLS_CERT_FILE, TLS_KEY_FILE, body);
  try {
    return await measureServer(stack, { url: `https://localhost:${ceiling.port}/`, processes: new Map([[ceiling.child.pid, 'ceiling server']]) }, options);
  } finally {
    ceiling.child.kill();
  }
}
