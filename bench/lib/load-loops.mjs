// Load loops: closed (each worker sends its next request once the last one answered) and open
// (requests sent on schedule, answered or not), recording the measured requests.
import { say, sleep } from './bench-kit.mjs';
import { percentile } from './latency.mjs';

/** What a loop records of its measured requests: latencies, statuses (what `send` resolved to) and errors (by code). */
function recorder() {
  const live = { latencies: [], sentAt: [], statuses: new Map(), errors: new Map() };
  const count = (counts, key) => counts.set(key, (counts.get(key) ?? 0) + 1);
  const record = (started) => {
    live.latencies.push(performance.now() - started);
    live.sentAt.push(started);
  };
  return {
    live,
    /** Sends one request; records it when `measured()` says so once it has settled, and resolves to what it resolved to. */
    async send(send, measured) {
      const started = performance.now();
      let status;
      try {
        status = await send();
      } catch (error) {
        if (measured()) {
          count(live.errors, error.code ?? error.message);
          record(started);
        }
        return undefined;
      }
      if (status !== null && measured()) {
        count(live.statuses, status);
        record(started);
      }
      return status;
    },
    result(elapsed, more = {}) {
      const latencies = [...live.latencies].sort((a, b) => a - b);
      const slowest = slowestWindows(live.sentAt, live.latencies, percentile(latencies, 99));
      return { requests: latencies.length, rate: latencies.length / elapsed, latencies, slowest, statuses: live.statuses, errors: live.errors, elapsed, ...more };
    },
  };
}

const WINDOW_MS = 250;

/**
 * When the slowest 1 % of requests were sent: in how many of the run's quarter-seconds, and the
 * share of the busiest one. Spread over many, the tail is queueing; packed into a few, it is a
 * stall (a pause of some process) worth looking for.
 */
function slowestWindows(sentAt, latencies, threshold) {
  if (latencies.length < 100) return undefined;
  const perWindow = new Map();
  let slow = 0;
  let first = Infinity;
  let last = -Infinity;
  latencies.forEach((latency, index) => {
    const window = Math.floor(sentAt[index] / WINDOW_MS);
    first = Math.min(first, window);
    last = Math.max(last, window);
    if (latency < threshold) return;
    perWindow.set(window, (perWindow.get(window) ?? 0) + 1);
    slow += 1;
  });
  const [busiest, most] = [...perWindow].reduce((a, b) => (b[1] > a[1] ? b : a));
  // Wall-clock time, to match against the services' and PostgreSQL's logs.
  const busiestAt = new Date(performance.timeOrigin + busiest * WINDOW_MS).toISOString().slice(11, 23);
  return { windows: perWindow.size, span: last - first + 1, busiestShare: most / slow, busiestAt };
}

/** Logs `t=… s: <what progress() returns>` every 5 s of `elapsedMs`. */
function progressLog(progress) {
  let last = 0;
  return (elapsedMs, live) => {
    if (!progress || elapsedMs - last < 5000) return;
    last = elapsedMs;
    Promise.resolve(progress(live)).then((text) => say(`t=${(elapsedMs / 1000).toFixed(0)} s: ${text}`), () => undefined);
  };
}

/**
 * Closed loop: `connections` workers, each sending its next request as soon as the last one
 * answered, for `seconds` after `warmupSeconds` (requests answered then are not counted).
 * `send()` resolves to the answer's status; `null` means there is no more work, and that worker
 * stops. `onWarmedUp()` is called as the measured window opens. Resolves to the requests answered
 * in the measured window, their rate, latencies (sorted), statuses and errors, and the window's
 * length in seconds.
 */
export async function closedLoop({ connections, seconds, warmupSeconds = 0, send, onWarmedUp }) {
  const recording = recorder();
  let measuring = false;
  let stopped = false;
  async function worker() {
    while (!stopped && (await recording.send(send, () => measuring)) !== null);
  }
  const workers = Promise.all(Array.from({ length: connections }, worker));
  await Promise.race([workers, sleep(warmupSeconds * 1000)]);
  measuring = true;
  const from = performance.now();
  onWarmedUp?.();
  await Promise.race([workers, sleep(seconds * 1000)]);
  measuring = false;
  const elapsed = (performance.now() - from) / 1000;
  stopped = true;
  await workers;
  return recording.result(elapsed);
}

/**
 * Open loop: request i is sent at start + i/rate whether or not earlier ones have answered, so a
 * slow server never lowers the offered rate. The first rate × warmupSeconds are the warm-up and
 * are not counted; `send(i, measured)` resolves to the answer's status. `onWarmedUp()` is called
 * as the first measured request is sent; what `progress({ latencies, statuses, errors, sent,
 * inFlight })` returns is logged every 5 s. Resolves once every request has settled, with:
 * the measured requests' latencies (sorted), statuses and errors; `rate`, answered per second
 * from the first measured request sent to the last one answered; `sendSeconds`, from the first
 * measured request sent to the last one sent; `maxInFlight`.
 */
export function openLoop({ rate, seconds, warmupSeconds = 0, send, onWarmedUp, progress }) {
  const total = Math.round(rate * (warmupSeconds + seconds));
  const firstMeasured = Math.round(rate * warmupSeconds);
  const recording = recorder();
  const tick = progressLog(progress);
  let sent = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  let measuredFrom = 0;
  let lastAnswer = 0;
  const start = performance.now();
  return new Promise((resolve) => {
    let sendingEnded = 0;
    const done = () => {
      if (!sendingEnded || inFlight > 0) return;
      resolve(recording.result((lastAnswer - measuredFrom) / 1000, {
        maxInFlight,
        sendSeconds: (sendingEnded - measuredFrom) / 1000,
      }));
    };
    const fire = (index) => {
      const measured = index >= firstMeasured;
      if (index === firstMeasured) {
        measuredFrom = performance.now();
        onWarmedUp?.();
      }
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      recording.send(() => send(index, measured), () => measured).finally(() => {
        if (measured) lastAnswer = performance.now();
        inFlight -= 1;
        done();
      });
    };
    const timer = setInterval(() => {
      const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * rate) + 1);
      while (sent < due) fire(sent++);
      tick(performance.now() - start, { ...recording.live, sent, inFlight });
      if (sent >= total) {
        clearInterval(timer);
        sendingEnded = performance.now();
        done();
      }
    }, 1);
  });
}
