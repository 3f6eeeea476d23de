// Zipkin for the local stack: the trace backend the services export their spans to. The
// server's executable jar (io.zipkin:zipkin-server, classifier exec) is resolved from Maven
// Central by Maven once and cached beside Kafka's jars; it runs on the JDK the stack already
// uses, stores spans in memory (a restart forgets them), and serves its UI and API on one port.
//
//   const zipkin = await startZipkin({ dataDir, port, log })   zipkin.url, zipkin.spansUrl, await zipkin.stop()

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { javaBin, launchUntilReady, run, stopProc, which } from './processes.mjs';

export const ZIPKIN_VERSION = '3.5.1';
const ARTIFACT = `io.zipkin:zipkin-server:${ZIPKIN_VERSION}:jar:exec`;
const START_TIMEOUT_MS = 90_000;
/** Spans kept in memory; the oldest traces are dropped beyond it. */
const MAX_SPANS = 200_000;

function zipkinJar() {
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'trilha', `zipkin-${ZIPKIN_VERSION}`, `zipkin-server-${ZIPKIN_VERSION}-exec.jar`);
}

/** Fetches the jar into the cache when it is not there (about 130 MB, first run only). */
async function ensureZipkinJar(log) {
  const jar = zipkinJar();
  if (fs.existsSync(jar) && fs.statSync(jar).size > 0) return jar;
  const mvn = which('mvn');
  if (!mvn) throw new Error('zipkin: mvn is needed once to fetch the Zipkin server jar (apt-get install maven)');
  const t0 = Date.now();
  log(`zipkin: resolving ${ARTIFACT} from Maven Central into ${path.dirname(jar)} (first run only)`);
  const repository = path.join(os.homedir(), '.m2', 'repository');
  const r = await run(mvn, ['-q', '-B', 'dependency:get', `-Dartifact=${ARTIFACT}`, '-Dtransitive=false'], { cwd: os.tmpdir() });
  if (r.code !== 0) throw new Error(`mvn dependency:get ${ARTIFACT} failed (exit ${r.code}):\n${r.out.trimEnd().split('\n').slice(-20).join('\n')}`);
  const resolved = path.join(repository, 'io', 'zipkin', 'zipkin-server', ZIPKIN_VERSION, path.basename(jar));
  fs.mkdirSync(path.dirname(jar), { recursive: true });
  // Copied under a temporary name and renamed: a concurrent start never sees half a jar.
  const tmp = `${jar}.tmp-${process.pid}`;
  fs.copyFileSync(resolved, tmp);
  fs.renameSync(tmp, jar);
  log(`zipkin: cached ${jar} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  return jar;
}

async function healthy(host, port) {
  const response = await fetch(`http://${host}:${port}/health`);
  return response.ok;
}

/**
 * Starts Zipkin on `host`:`port` (loopback by default) with in-memory storage; its log goes to
 * `dataDir`/zipkin.log. Returns the UI's base URL, the span endpoint the services export to,
 * and `stop()`.
 */
export async function startZipkin({ dataDir, port, host = '127.0.0.1', log = console.error }) {
  const jar = await ensureZipkinJar(log);
  const java = javaBin();
  if (!java) throw new Error('zipkin: java (JDK 17+) not found');
  fs.mkdirSync(dataDir, { recursive: true });
  const t0 = Date.now();
  const proc = await launchUntilReady({
    name: 'zipkin',
    cmd: java,
    // A small heap and the client compiler: it starts in seconds beside Kafka on two cores.
    // Zipkin 3 serves on Armeria, which reads its listener from armeria.ports (Spring's
    // server.address is ignored); a list is replaced whole, so the entry names all its fields.
    args: ['-Xms64m', '-Xmx512m', '-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC', '-jar', jar,
      `--armeria.ports[0].port=${port}`, `--armeria.ports[0].ip=${host}`, '--armeria.ports[0].protocols[0]=http',
      '--zipkin.storage.type=mem', `--zipkin.storage.mem.max-spans=${MAX_SPANS}`],
    cwd: dataDir,
    env: { ...process.env },
    logFile: path.join(dataDir, 'zipkin.log'),
    pidFile: path.join(dataDir, 'zipkin.pid'),
    stopSignal: 'SIGTERM',
    check: () => healthy(host, port),
    timeoutMs: START_TIMEOUT_MS,
    log,
  });
  const url = `http://${host}:${port}`;
  log(`zipkin: up on ${url}/zipkin/ (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  return { url, spansUrl: `${url}/api/v2/spans`, stop: () => stopProc(proc, log) };
}
