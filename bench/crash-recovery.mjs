// Benchmark: a service killed with SIGKILL and started again at once, under a steady load.
//
//   Targets: the restarted process answers its first request ≤ 5 s after it starts; delivery of
//   new events resumes ≤ 10 s after the kill (docs/BENCHMARKS.md).
//
//   node bench/crash-recovery.mjs [--repeats=3 --rate=20 --stores=10 --settle=5 --keep
//                                  --targets=delivery-service,atendimento-service,api-gateway,tracking-service,kafka]
//
// It starts its own durable stack (fast: false, as in production), creates stores through the
// HTTPS API with webhooks at a receiver on loopback (a child process answering 200 at once), and
// opens conversations through the gateway at --rate per second for the whole run (each commits
// an `atendimento.criado`, which the delivery service pushes to the store's webhook). Then, for
// each target in turn and --repeats times, SIGKILL and an immediate start of the same command
// line and environment, measuring
// (a) the new process's start → its first answered request: a GET on its own port every 25 ms
//     (the gateway's GET /v1/loja over HTTPS with a store's token; the internal port of the
//     others with the gateway's internal token), any answer below 500;
// (b) the kill → the first webhook received of an event that occurred after it (the event's
//     `occurred_at` in the event store against this machine's clock).
// Baselines in the same run, since a shared machine's speed moves: for (a), just before each
// kill, the start of a bare NestJS app on Fastify (lib/framework-floor-process.mjs: spawn → its
// first answer), which is what any Nest service pays to start on this machine at that moment;
// for (b), the event → webhook latency of the steady load before the first kill (median).
// Kafka has no (a): its broker is killed and restarted the way the stack runs it, and (b) is
// shown beside the broker's own restart. After the last kill the load stops and every
// conversation answered 201 must have reached its webhook, and every webhook-id must be an event
// of the store; the run reports the requests that failed while a process was down.
import { execFileSync, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { startService, stopProcess } from '../tools/stack.mjs';
import { BASE_PORTS, parseArgs, say, sleep } from './lib/bench-kit.mjs';
import { benchStack } from './lib/bench-stack.mjs';
import { percentile, times } from './lib/latency.mjs';
import { describeMachine } from './lib/machine.mjs';
import { startReceiver, storesWithWebhooks } from './lib/webhook-receiver.mjs';

const require = createRequire(import.meta.url);
const { Client } = require('pg');

const args = parseArgs({ repeats: 3, rate: 20, stores: 10, settle: 5, targets: 'delivery-service,atendimento-service,api-gateway,tracking-service,kafka', keep: false });
const TARGET = { serveMs: 5000, resumeMs: 10_000 };
const PROBE_EVERY_MS = 25;
const GIVE_UP_MS = 90_000;
const FLOOR_PROCESS = fileURLToPath(new URL('./lib/framework-floor-process.mjs', import.meta.url));

/** (a)'s baseline: ms from spawning a bare Nest app on Fastify to its first answer. */
async function bareNestStart() {
  const startedAt = Date.now();
  const child = spawn(process.execPath, [FLOOR_PROCESS, 'service'], { env: { ...process.env, BODY: '{}' }, stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  try {
    const port = await new Promise((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`the bare Nest app exited with ${code}`)));
      child.stdout.once('data', (chunk) => resolve(Number(String(chunk).trim())));
    });
    await (await fetch(`http://127.0.0.1:${port}/v1/x`)).text();
    return Date.now() - startedAt;
  } finally {
    child.kill();
  }
}

/** Each service's probe route on its own port (the gateway's public one, the others' internal one). */
const PROBES = { 'api-gateway': '/loja', 'atendimento-service': '/v1/agentes', 'delivery-service': '/v1/webhook', 'tracking-service': '/v1/pedido?numeroPedido=bench' };
const targets = args.targets.split(',');
for (const target of targets) if (target !== 'kafka' && !PROBES[target]) throw new Error(`--targets: unknown ${target} (one of ${[...Object.keys(PROBES), 'kafka'].join(', ')})`);

const bench = await benchStack('crash-recovery', BASE_PORTS.recovery, { keep: args.keep, rateLimitPerMinute: 1_000_000 });

await bench.run(async () => {
  const { api, facts, stack } = bench;
  const receiver = await startReceiver(stack, 0);
  const db = new Client({ connectionString: stack.infra.databaseUrl });
  await db.connect();
  let loading;
  try {
    say(`creating ${args.stores} stores with webhooks`);
    const stores = await storesWithWebhooks(bench, args.stores, receiver);
    /** Webhook-id → arrival times (epoch ms). */
    const arrivals = new Map();
    const collect = async () => {
      for (const [id, at] of await receiver.arrivals()) arrivals.set(id, [...(arrivals.get(id) ?? []), at]);
    };

    // The steady load: one conversation every 1000 / rate ms, round the stores.
    const answered = new Map();
    let sent = 0;
    loading = setInterval(() => {
      const store = stores[sent++ % stores.length];
      api('POST', '/atendimentos', { token: store.token, body: { canal: 'chat', tipo: 'duvida', dadosCliente: { nome: 'Bench', telefone: '+5511999990000', email: 'bench@example.com' } } }).then(
        (response) => answered.set(response.status, (answered.get(response.status) ?? 0) + 1),
        (error) => answered.set(error.code ?? error.message, (answered.get(error.code ?? error.message) ?? 0) + 1),
      );
    }, 1000 / args.rate);
    await sleep(3000);

    /** (a): ms from `startedAt` to the first answer of the service on its own port. */
    async function firstAnswer(service, startedAt) {
      const env = stack.env[service];
      const headers = { 'x-trilha-internal-token': env.INTERNAL_API_TOKEN, 'x-trilha-loja': String(stores[0].idLoja) };
      for (;;) {
        if (Date.now() - startedAt > GIVE_UP_MS) throw new Error(`${service} did not answer within ${GIVE_UP_MS / 1000} s`);
        const status = service === 'api-gateway'
          ? await api('GET', PROBES[service], { token: stores[0].token }).then((response) => response.status, () => 0)
          : await fetch(`http://127.0.0.1:${env.INTERNAL_PORT}${PROBES[service]}`, { headers, signal: AbortSignal.timeout(1000) }).then((response) => response.status, () => 0);
        if (status > 0 && status < 500) return Date.now() - startedAt;
        await sleep(PROBE_EVERY_MS);
      }
    }

    /** (b): ms from `since` to the first webhook of an event that occurred after it. */
    async function resumed(since) {
      for (;;) {
        await collect();
        const { rows } = await db.query(`SELECT event_id FROM atendimento.events WHERE type = 'atendimento.criado' AND occurred_at > to_timestamp($1::double precision / 1000)`, [since]);
        const first = Math.min(...rows.flatMap((row) => arrivals.get(row.event_id) ?? []));
        if (Number.isFinite(first)) return first - since;
        if (Date.now() - since > GIVE_UP_MS) throw new Error(`no event after ${new Date(since).toISOString()} delivered within ${GIVE_UP_MS / 1000} s`);
        await sleep(100);
      }
    }

    /** Kills the target with SIGKILL and starts it again at once; its figures. */
    async function crash(target) {
      if (target === 'kafka') {
        const pid = /pid=(\d+)/.exec(execFileSync('ss', ['-ltnpH', `sport = :${stack.ports.kafka}`], { encoding: 'utf8' }))?.[1];
        const killedAt = Date.now();
        process.kill(Number(pid), 'SIGKILL');
        await stack.infra.restart('kafka');
        const brokerMs = Date.now() - killedAt;
        return { brokerMs, resumeMs: await resumed(killedAt) };
      }
      const bareMs = await bareNestStart();
      const index = stack.processes.findIndex((process) => process.name === target);
      const killedAt = Date.now();
      stack.processes[index].child.kill('SIGKILL');
      await stopProcess(stack.processes[index].child);
      const startedAt = Date.now();
      const [serveMs, started, resumeMs] = await Promise.all([firstAnswer(target, startedAt), startService(stack, target), resumed(killedAt)]);
      stack.processes[index] = started;
      return { bareMs, serveMs, resumeMs };
    }

    /** (b)'s baseline: event → webhook latencies (ms) of the events that occurred before `until`. */
    async function steadyLatencies(until) {
      await collect();
      const { rows } = await db.query(`SELECT event_id, extract(epoch FROM occurred_at) * 1000 AS at FROM atendimento.events WHERE type = 'atendimento.criado' AND occurred_at < to_timestamp($1::double precision / 1000)`, [until]);
      return rows.filter((row) => arrivals.has(row.event_id)).map((row) => arrivals.get(row.event_id)[0] - Number(row.at));
    }

    const steady = await steadyLatencies(Date.now());
    const results = [];
    for (const target of targets) {
      for (let repeat = 1; repeat <= args.repeats; repeat += 1) {
        const figures = await crash(target);
        results.push({ target, ...figures });
        say(`${target} ${repeat}/${args.repeats}: ${figures.serveMs === undefined ? `broker back ${figures.brokerMs} ms after the kill; ` : `first answer ${figures.serveMs} ms after the start (a bare Nest app just before: ${figures.bareMs} ms); `}new events delivered again ${figures.resumeMs} ms after the kill`);
        await sleep(args.settle * 1000);
      }
    }

    clearInterval(loading);
    loading = undefined;
    say('load stopped; waiting for every conversation’s webhook');
    const created = async () => (await db.query(`SELECT event_id FROM atendimento.events WHERE type = 'atendimento.criado'`)).rows.map((row) => row.event_id);
    const deadline = Date.now() + GIVE_UP_MS;
    let missing;
    do {
      await sleep(1000);
      await collect();
      missing = (await created()).filter((id) => !arrivals.has(id));
    } while (missing.length > 0 && Date.now() < deadline);
    const events = new Set(await created());
    const foreign = [...arrivals.keys()].filter((id) => !events.has(id) && id !== undefined);
    const again = [...arrivals.values()].filter((at) => at.length > 1).length;

    const sorted = (values) => [...values].sort((a, b) => a - b);
    const median = (values) => percentile(sorted(values), 50);
    const summary = (values) => `median ${median(values).toFixed(0)} ms, max ${Math.max(...values).toFixed(0)} ms`;
    const lines = ['', 'kill -9 and an immediate restart, under a steady load', `  date            ${facts.date}`, `  machine         ${describeMachine(facts)}`,
      `  load            ${args.rate} conversations/s through the gateway over ${args.stores} stores with webhooks; ${args.repeats} kills of each`,
      `  steady delivery event → webhook before the first kill: median ${median(steady).toFixed(0)} ms, p99 ${percentile(sorted(steady), 99).toFixed(0)} ms (n = ${steady.length})`];
    let met = true;
    for (const target of targets) {
      const of = (key) => results.filter((result) => result.target === target).map((result) => result[key]);
      const resumeMet = of('resumeMs').every((ms) => ms <= TARGET.resumeMs);
      lines.push(`  ${target}`);
      if (target === 'kafka') {
        lines.push(`    broker back after the kill  ${summary(of('brokerMs'))} (its own restart: log recovery and start-up of the JVM)`,
          `    (b) kill → delivery resumes ${summary(of('resumeMs'))}; after the broker was back: ${summary(results.filter((result) => result.target === target).map((result) => result.resumeMs - result.brokerMs))}`);
        continue;
      }
      const serveMet = of('serveMs').every((ms) => ms <= TARGET.serveMs);
      met &&= serveMet && resumeMet;
      lines.push(`    (a) start → first answer    ${summary(of('serveMs'))}; a bare Nest app's start ${summary(of('bareMs'))}; median ${times(median(of('serveMs')) / median(of('bareMs')))} the bare start; target ≤ ${TARGET.serveMs} ms: ${serveMet ? 'MET' : 'NOT MET'}`,
        `    (b) kill → delivery resumes ${summary(of('resumeMs'))}; median ${times(median(of('resumeMs')) / median(steady))} the steady latency; target ≤ ${TARGET.resumeMs} ms: ${resumeMet ? 'MET' : 'NOT MET'}`);
    }
    const failed = [...answered].filter(([status]) => status !== 201);
    lines.push(`  requests        ${sent} sent: ${[...answered].map(([status, count]) => `${status} × ${count}`).join(', ')}`,
      `  correctness     ${events.size} events: ${missing.length} never delivered, ${foreign.length} webhook-ids that are no event of the store, ${again} delivered more than once under their own id`,
      `  targets         ${met ? 'MET' : 'NOT MET'}`, '');
    if (failed.length) say('the requests without a 201 are those sent while the gateway or the atendimento service was down');
    process.stdout.write(lines.join('\n'));
    return met && missing.length === 0 && foreign.length === 0;
  } finally {
    if (loading) clearInterval(loading);
    await db.end();
    await receiver.stop();
  }
});
