// `helm test`: the gateway answers on its ops port (/readyz: database and Kafka reachable) and on
// its public port (/v1/openapi.json). Behind an ingress the public port is plain HTTP and believes
// X-Forwarded-Proto only from TRUSTED_PROXIES: a 403 here means this pod's address is not in it.
const checks = [
  [process.env.READY_URL, {}],
  [process.env.GATEWAY_URL, { 'x-forwarded-proto': 'https' }],
];
(async () => {
  for (const [url, headers] of checks) {
    const response = await fetch(url, { headers, signal: AbortSignal.timeout(10_000) });
    process.stdout.write(`${url}: ${response.status}\n`);
    if (response.status !== 200) throw new Error(`${url} answered ${response.status}: ${await response.text()}`);
  }
})().catch((error) => {
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
});
