// `helm test`: the gateway answers on its ops port (/readyz: database and Kafka reachable, so
// "ready", not "degraded") and on its public port (/v1/openapi.json). Behind an ingress the public
// port is plain HTTP and believes X-Forwarded-Proto only from TRUSTED_PROXIES: a 403 here means
// this pod's address is not in it.
const checks = [
  [process.env.READY_URL, {}, (body) => JSON.parse(body).status === 'ready'],
  [process.env.GATEWAY_URL, { 'x-forwarded-proto': 'https' }, () => true],
];
(async () => {
  for (const [url, headers, bodyIsRight] of checks) {
    const response = await fetch(url, { headers, signal: AbortSignal.timeout(10_000) });
    process.stdout.write(`${url}: ${response.status}\n`);
    const body = await response.text();
    if (response.status !== 200 || !bodyIsRight(body)) throw new Error(`${url} answered ${response.status}: ${body}`);
  }
})().catch((error) => {
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
});
