// `helm test`: the gateway answers on its ops port (/readyz: database and Kafka reachable, and its
// consumer in its group, so "ready", not "degraded") and on its public port (/v1/openapi.json).
// Behind an ingress the public port is plain HTTP and believes X-Forwarded-Proto only from
// TRUSTED_PROXIES: a 403 here means this pod's address is not in it. For up to 30 s a connection
// that fails is tried again (right after `helm install --wait` the Service may not route to the new
// pods yet), and so is a "degraded" /readyz (a pod is Ready once it serves; its consumer joins its
// group in the background). Any other answer is final.
const checks = [
  [process.env.READY_URL, {}, (body) => JSON.parse(body).status === 'ready', (body) => JSON.parse(body).status === 'degraded'],
  [process.env.GATEWAY_URL, { 'x-forwarded-proto': 'https' }, () => true, () => false],
];
const PATIENCE_MS = 30_000;

/** The status and body of `url`'s answer, once it is not one to wait past. */
async function answer(url, headers, worthWaiting) {
  const deadline = Date.now() + PATIENCE_MS;
  for (;;) {
    try {
      const response = await fetch(url, { headers, signal: AbortSignal.timeout(10_000) });
      const body = await response.text();
      if (Date.now() > deadline || !(response.status === 200 && worthWaiting(body))) return { status: response.status, body };
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

(async () => {
  for (const [url, headers, bodyIsRight, worthWaiting] of checks) {
    const { status, body } = await answer(url, headers, worthWaiting);
    process.stdout.write(`${url}: ${status}\n`);
    if (status !== 200 || !bodyIsRight(body)) throw new Error(`${url} answered ${status}: ${body}`);
  }
})().catch((error) => {
  // fetch's own message ("fetch failed") says nothing: its cause names the refusal or the timeout.
  process.stderr.write(`${error.message}${error.cause ? `: ${error.cause.message ?? error.cause}` : ''}\n`);
  process.exit(1);
});
