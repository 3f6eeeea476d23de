// The webhook receiver's own process (started by startReceiver in ./webhook-receiver.mjs, so its
// CPU is not the load generator's): an HTTPS server that answers 200 after a fixed delay and
// reports [webhook-id, arrival epoch ms] of every request to its parent.
//   argv: <cert file> <key file> <delay ms>
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';

const [certFile, keyFile, delay] = process.argv.slice(2);
const delayMs = Number(delay ?? 0);
let arrivals = [];
const report = () => {
  if (arrivals.length > 0) process.send({ arrivals });
  arrivals = [];
};

const server = createServer({ cert: readFileSync(certFile), key: readFileSync(keyFile) }, (request, response) => {
  request.resume();
  request.on('end', () => {
    arrivals.push([request.headers['webhook-id'], Date.now()]);
    const answer = () => response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    if (delayMs > 0) setTimeout(answer, delayMs);
    else answer();
  });
});
server.keepAliveTimeout = 60_000;
server.headersTimeout = 65_000;
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
setInterval(report, 100);
process.on('message', (message) => {
  if (message !== 'flush') return;
  report();
  process.send({ flushed: true });
});
process.on('disconnect', () => process.exit(0));
