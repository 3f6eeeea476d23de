// Benchmark: GET /v1/pedidoRastreio through the gateway over HTTPS, against a bare Node HTTPS
// server answering the same JSON from memory (the ceiling), in the same run.
//
//   Target: ≥ 0.5 × the framework floor's req/s (two NestJS hops doing none of the platform's
//   work, measured in the same run) with p99 ≤ 50 ms at 50 connections, the ratio to the bare
//   server printed beside it, with the whole stack on this 2-core machine, traces sampled as the
//   Helm chart's default does (a tenth, lib/bench-stack.mjs), and 1,000 stores × 20 orders × 2 volumes × 10 events loaded, the load spread over enough stores
//   that no limit is hit. GET /pedidoRastreio allows a store 120 requests a calendar minute, so
//   1,000 stores take at most 3,400 req/s over a 35 s run: the default is twice that data set,
//   2,000 stores, and every store in turn.
//
//   node bench/tracking-read.mjs [--connections=50 --duration=30 --warmup=5 --stores=2000 --profile --log-level=warn --keep]
//
// `--profile` runs the services under V8's profiler (it costs them about a quarter more CPU) and
// prints where the gateway's CPU went during the measured reads, part by part (authentication,
// rate limit, logging, tracing, forwarding, ...: lib/profile-parts.mjs). The profiles stay in
// the directory it names, for Chrome DevTools' Performance panel.
//
// It starts its own durable stack (tools/stack.mjs) in a temporary directory on its own ports,
// creates the stores through the API, loads the data set (bench/lib/tracking-data.mjs), then runs
// closed loops of `connections` concurrent requests: first against the ceiling (a child
// process serving one real tracking record from memory over HTTPS with the stack's certificate,
// lib/bare-https.mjs), then against the framework floor (the same record through two hops made of
// the platform's parts and none of its work, lib/framework-floor.mjs), then straight at the
// tracking service's internal port (how the time splits between it and the gateway), and last
// against the gateway, each request for a random store, order and filter (numeroPedido,
// codigoRastreio, idPedido, pedidoCanal). Requests go to the stores in turn, a random order of
// each, so none reaches its 120/min limit. Each phase prints its CPU per request.
// Progress goes to stderr; the report to stdout.
import { mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BASE_PORTS, parseArgs, say, sleep } from './lib/bench-kit.mjs';
import { measureBareServer } from './lib/bare-https.mjs';
import { benchStack, httpsAgent, request } from './lib/bench-stack.mjs';
import { describeResult, ratioLine } from './lib/latency.mjs';
import { closedLoop } from './lib/load-loops.mjs';
import { cpuMeter, cpuPerUnit } from './lib/machine.mjs';
import { measureFrameworkFloor } from './lib/framework-floor.mjs';
import { GATEWAY_PARTS, profileClockUs, profileParts, serviceProfile } from './lib/profile-parts.mjs';
import { trackingDataSet, trackingReportHead } from './lib/tracking-data.mjs';

const { Agent } = createRequire(import.meta.url)('undici');
const args = parseArgs({ connections: 50, duration: 30, warmup: 5, stores: 2000, orders: 20, volumes: 2, events: 10, profile: false, 'log-level': 'warn', keep: false });
const TARGET = { ofFloor: 0.5, p99: 50 };

const profileDir = args.profile ? mkdtempSync(join(tmpdir(), 'trilha-bench-profile-')) : undefined;
if (profileDir) process.env.TRILHA_SERVICE_NODE_ARGS = `--cpu-prof --cpu-prof-dir=${profileDir}`;
/** The measured reads through each gateway (Trilha's, the floor's): their window on the profiles' clock and the gateway's CPU per read. */
const measured = {};

const bench = await benchStack('tracking-read', BASE_PORTS.tracking, { keep: args.keep, logLevel: args['log-level'], rateLimitPerMinute: 100_000_000 });

await bench.run(async () => {
  const { facts, stack } = bench;
  const { counts, targets } = await trackingDataSet(bench, args);
  const FILTERS = [
    ({ pedido }) => `chave=numeroPedido&valor=${pedido.numeroPedido}`,
    ({ pedido }) => `chave=codigoRastreio&valor=${pedido.codigos[1]}`,
    ({ pedido }) => `chave=idPedido&valor=${pedido.idPedido}`,
    ({ pedido }) => `chave=pedidoCanal&valor=${pedido.pedidoCanal}`,
  ];
  // The stores are asked in turn, a random order of each, so each gets an even share of the load.
  const stores = [...new Set(targets.map((target) => target.store))];
  let turn = 0;
  const nextTarget = () => {
    const store = stores[turn++ % stores.length];
    return { store, pedido: store.pedidos[Math.floor(Math.random() * store.pedidos.length)] };
  };
  const gateway = httpsAgent(stack.caFile, args.connections);
  let i = 0;
  const sendToGateway = async () => {
    const target = nextTarget();
    const response = await request(`${stack.baseUrl}/pedidoRastreio?${FILTERS[i++ % FILTERS.length](target)}`, {
      dispatcher: gateway, headers: { authorization: `Bearer ${target.store.token}` },
    });
    await response.body.arrayBuffer();
    return response.statusCode;
  };

  // One real record, as the API returns it, for the ceiling and to check the data set.
  const sample = await request(`${stack.baseUrl}/pedidoRastreio?${FILTERS[0](targets[0])}`, { dispatcher: gateway, headers: { authorization: `Bearer ${targets[0].store.token}` } });
  const sampleBody = await sample.body.text();
  if (sample.statusCode !== 200) throw new Error(`sample GET /pedidoRastreio: ${sample.statusCode} ${sampleBody}`);
  const record = JSON.parse(sampleBody);
  say(`a record: ${sampleBody.length} bytes, ${record.totalVolumes} volumes, ${record.volumes.map((v) => v.totalEventos).join('+')} events`);

  say(`ceiling: bare Node HTTPS server, ${args.connections} connections, ${args.warmup} s warm-up + ${args.duration} s`);
  const { result: bare, cpu: bareCpu } = await measureBareServer(stack, sampleBody, args);
  say(`ceiling: ${bare.line}`);
  await sleep(2000);

  say(`framework floor: NestJS + Fastify (HTTPS) → undici → NestJS + Fastify, ${args.connections} connections, ${args.warmup} s warm-up + ${args.duration} s`);
  const floorWindow = { fromUs: profileClockUs() + args.warmup * 1e6 };
  const { result: floor, cpu: floorCpu } = await measureFrameworkFloor(stack, sampleBody, args);
  floorWindow.toUs = profileClockUs();
  say(`framework floor: ${floor.line}`);
  await sleep(2000);

  // Where the time goes: the tracking service alone, on its internal port (plain HTTP), as the gateway calls it.
  const internal = stack.env['tracking-service'];
  const direct = new Agent({ connections: args.connections, pipelining: 1, keepAliveTimeout: 30_000 });
  let j = 0;
  const sendToService = async () => {
    const target = nextTarget();
    const response = await request(`http://127.0.0.1:${internal.INTERNAL_PORT}/v1/pedidoRastreio?${FILTERS[j++ % FILTERS.length](target)}`, {
      dispatcher: direct, headers: { 'x-trilha-internal-token': internal.INTERNAL_API_TOKEN, 'x-trilha-loja': String(target.store.idLoja) },
    });
    await response.body.arrayBuffer();
    return response.statusCode;
  };
  say(`tracking service alone: internal port, ${args.connections} connections, ${args.warmup} s warm-up + ${args.duration} s`);
  const meter = cpuMeter(stack);
  meter.start();
  const service = describeResult(await closedLoop({ connections: args.connections, seconds: args.duration, warmupSeconds: args.warmup, send: sendToService }));
  const serviceCpu = meter.stop();
  say(`tracking service alone: ${service.line}`);
  await direct.close();
  await sleep(2000);

  say(`Trilha: GET /v1/pedidoRastreio through the gateway, ${args.connections} connections, ${args.warmup} s warm-up + ${args.duration} s`);
  meter.start();
  const trilhaWindow = { fromUs: profileClockUs() + args.warmup * 1e6 };
  const trilhaResult = await closedLoop({ connections: args.connections, seconds: args.duration, warmupSeconds: args.warmup, send: sendToGateway });
  trilhaWindow.toUs = profileClockUs();
  const trilha = describeResult(trilhaResult);
  const trilhaCpu = meter.stop();
  say(`Trilha: ${trilha.line}`);
  await gateway.close();

  const allAnswered = [...trilhaResult.statuses.keys()].every((status) => status === 200) && trilhaResult.errors.size === 0;
  const pass = trilha.rate >= TARGET.ofFloor * floor.rate && trilha.p99 <= TARGET.p99 && allAnswered;
  measured.trilha = { ...trilhaWindow, ms: (trilhaCpu.cores.get('api-gateway') * 1000) / trilha.rate };
  measured.floor = { ...floorWindow, ms: (floorCpu.cores.get('floor gateway') * 1000) / floor.rate };
  process.stdout.write([
    ...trackingReportHead('GET /v1/pedidoRastreio through the gateway (HTTPS), closed loop', facts, args, counts),
    `  requests        ${args.connections} connections, ${args.duration} s after ${args.warmup} s warm-up; the stores in turn, a random order of each, the four filters in turn`,
    `  traces          ${process.env.OTEL_TRACES_SAMPLER} ${process.env.OTEL_TRACES_SAMPLER_ARG}${profileDir ? '; every service under V8\'s profiler (about a quarter more CPU)' : ''}`,
    `  ceiling         ${bare.line}`,
    `                  CPU: ${bareCpu.text}`,
    `                  per request ${cpuPerUnit(bareCpu, bare.rate)}`,
    `  framework floor ${floor.line} (NestJS + Fastify over HTTPS → undici → NestJS + Fastify answering from memory: the platform's parts without its work)`,
    `                  CPU: ${floorCpu.text}`,
    `                  per request ${cpuPerUnit(floorCpu, floor.rate)}`,
    `  Trilha          ${trilha.line}`,
    `                  CPU: ${trilhaCpu.text}`,
    `                  per request ${cpuPerUnit(trilhaCpu, trilha.rate)}`,
    `  service alone   ${service.line} (tracking service's internal port, plain HTTP, no gateway)`,
    `                  CPU: ${serviceCpu.text}`,
    `                  per request ${cpuPerUnit(serviceCpu, service.rate)}`,
    `  ratio           Trilha / framework floor: ${ratioLine(trilha.rate, floor.rate, 'req/s')}`,
    `                  Trilha / ceiling: ${ratioLine(trilha.rate, bare.rate, 'req/s')}`,
    `                  framework floor / ceiling: ${ratioLine(floor.rate, bare.rate, 'req/s')}`,
    `  target          ≥ ${TARGET.ofFloor} × the framework floor with p99 ≤ ${TARGET.p99} ms: ${pass ? 'PASS' : 'FAIL'}${allAnswered ? '' : ' (not every answer was 200)'}`,
    '',
  ].join('\n'));
  return pass;
}, { afterStop: profileDir && reportGatewayParts });

/** Once the services have written their profiles: the gateway's CPU per read, part by part, beside the floor's gateway. */
async function reportGatewayParts(pass) {
  const perPart = (profile, { fromUs, toUs, ms }) => {
    if (!profile) throw new Error(`a gateway's profile is missing in ${profileDir}`);
    const { parts } = profileParts(profile, GATEWAY_PARTS, { fromUs, toUs });
    return new Map(parts.map(({ part, share }) => [part, share * ms]));
  };
  const trilha = perPart(serviceProfile(profileDir, 'api-gateway'), measured.trilha);
  const floor = perPart(readProfile('framework-floor-gateway.cpuprofile'), measured.floor);
  const cell = (ms) => (ms === undefined ? '—' : `${ms.toFixed(3)} ms`).padStart(10);
  process.stdout.write([
    `  gateway's CPU per read, by part (V8's profiles of the measured reads, both gateways under the profiler)`,
    `                  ${'Trilha'.padStart(10)} ${'floor'.padStart(10)}  part`,
    ...[...trilha].map(([part, ms]) => `                  ${cell(ms)} ${cell(floor.get(part))}  ${part}`),
    `                  ${cell(measured.trilha.ms)} ${cell(measured.floor.ms)}  in all`,
    `                  profiles in ${profileDir}`,
    '',
  ].join('\n'));
  return pass;
}

function readProfile(name) {
  return JSON.parse(readFileSync(join(profileDir, name), 'utf8'));
}