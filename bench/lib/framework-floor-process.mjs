// One process of the framework floor (framework-floor.mjs): the platform's two hops made of
// the same parts (NestJS on Fastify, undici's pool between them) with none of its work.
//   role `service`: Nest + Fastify on plain HTTP, GET /v1/* answers BODY from memory;
//   role `gateway`: Nest + Fastify on HTTPS (CERT, KEY), forwards GET /v1/* to UPSTREAM and
//   answers with the status, content type and body it got.
// Written in plain JavaScript, so the decorators are applied as functions. Prints its port.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
require('reflect-metadata');
const { NestFactory } = require('@nestjs/core');
const { Controller, Get, Module, Req, Res } = require('@nestjs/common');
const { FastifyAdapter } = require('@nestjs/platform-fastify');
const { Pool } = require('undici');

const role = process.argv[2];

function serviceController() {
  const body = Buffer.from(process.env.BODY);
  class ServiceController {
    answer(reply) {
      reply.header('content-type', 'application/json; charset=utf-8').send(body);
    }
  }
  Res()(ServiceController.prototype, 'answer', 0);
  return ServiceController;
}

function gatewayController() {
  const upstream = new Pool(process.env.UPSTREAM, { connections: 128, pipelining: 1, keepAliveTimeout: 30_000 });
  class GatewayController {
    async answer(request, reply) {
      const response = await upstream.request({ method: 'GET', path: request.originalUrl });
      reply.status(response.statusCode).header('content-type', response.headers['content-type']).send(Buffer.from(await response.body.arrayBuffer()));
    }
  }
  Req()(GatewayController.prototype, 'answer', 0);
  Res()(GatewayController.prototype, 'answer', 1);
  return GatewayController;
}

async function start() {
  const controller = role === 'gateway' ? gatewayController() : serviceController();
  Get('*')(controller.prototype, 'answer', Object.getOwnPropertyDescriptor(controller.prototype, 'answer'));
  Controller('v1')(controller);
  class FloorModule {}
  Module({ controllers: [controller] })(FloorModule);
  const https = role === 'gateway' ? { cert: readFileSync(process.env.CERT), key: readFileSync(process.env.KEY) } : undefined;
  const app = await NestFactory.create(FloorModule, new FastifyAdapter(https ? { https } : {}), { logger: false });
  await app.listen(0, '127.0.0.1');
  process.stdout.write(`${app.getHttpServer().address().port}\n`);
}

// The IPC channel only tells the child when its parent is gone, however that ended. Exiting
// on SIGTERM lets a profiler (--cpu-prof) write its profile.
process.on('disconnect', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
start().catch((error) => {
  process.stderr.write(`framework floor (${role}): ${error.stack}\n`);
  process.exit(1);
});
