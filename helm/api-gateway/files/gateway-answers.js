// `helm test`: the gateway answers on its ops port (/readyz: database and Kafka reachable, so
// "ready", not "degraded") and on its public port (/v1/openapi.json). Behind an ingress the public
// port is plain HTTP and believes X-Forwarded-Proto only from TRUSTED_PROXIES: a 403 here means
// this pod's address is not in it. A connection that fails is tried again for up to 30 s: right
// after `helm install --wait` the Service may not route to the new pods yet. An answer is final.
const checks = [
  [process.env.READY_URL, {}, (body) => JSON.parse(body).status === 'ready'],
  [process.env.GATEWAY_URL, { 'x-forwarded-proto': 'https' }, () => true],
];
const PATIENCE_MS = 30_000;

async function answer(url, headers) {
  const deadline = Date.now() + PATIENCE_MS;
  for (;;) {
    try {
      return await fetch(url, { headers, signal: AbortSignal.timeout(10_000) });
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}

(async () => {
  for (const [url, headers, bodyIsRight] of checks) {
    const response = await answer(url, headers);
    process.stdout.write(`${url}: ${response.status}\n`);
    const body = await response.text();
    if (response.status !== 200 || !bodyIsRight(body)) throw new Error(`${url} answered ${response.status}: ${body}`);
  }
})().catch((error) => {
  // fetch's own message ("fetch failed") says nothing: its cause names the refusal or the timeout.
  process.stderr.write(`${error.message}${error.cause ? `: ${error.cause.message ?? error.cause}` : ''}\n`);
  process.exit(1);
});
