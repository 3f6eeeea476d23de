import './tracing';
import { Logger } from '@nestjs/common';
import fastifyCompress from '@fastify/compress';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { kafkaConnection, loadConfigOrExit } from '@trilha/config';
import { UNPREFIXED_ROUTES } from '@trilha/gateway-routing';
import { configureHttp, httpAdapter } from '@trilha/http';
import { API_GATEWAY_SERVICE } from '@trilha/lojas';
import { main, runService } from '@trilha/service-runtime';
import { AppModule } from './app.module';
import { gatewayConfigSchema, gatewayDatabase } from './config';
import { loadOpenApiDocument, serveOpenApi } from './openapi';
import { servePortal } from './portal';

main(async () => {
  const config = loadConfigOrExit(gatewayConfigSchema);
  await runService({
    service: API_GATEWAY_SERVICE,
    database: gatewayDatabase(config),
    kafka: kafkaConnection(config),
    opsPort: config.OPS_PORT,
    listenAddress: config.LISTEN_ADDRESS,
    // Every replica reads every store event (its own group): deactivations reach all of them.
    consumer: { groupId: `${API_GATEWAY_SERVICE.name}-${config.INSTANCE_ID ?? `${hostname()}-${randomUUID().slice(0, 8)}`}`, fromBeginning: false },
    async createApp() {
      // Read here, not before: `main.js migrate` needs neither the certificate nor the document.
      const https = config.TLS_TERMINATED_BY_PROXY
        ? undefined
        : { cert: readFileSync(config.TLS_CERT_FILE!), key: readFileSync(config.TLS_KEY_FILE!) };
      const document = loadOpenApiDocument();
      const app = await NestFactory.create<NestFastifyApplication>(
        AppModule.register(config, document),
        httpAdapter({ https, trustProxy: config.TRUSTED_PROXIES }),
        { bufferLogs: true, bodyParser: false },
      );
      configureHttp(app, { httpsOnly: true, prefixExclude: UNPREFIXED_ROUTES });
      // Answers over 1 KB go compressed to a client that accepts it (Brotli or gzip): the OpenAPI
      // document the portal and tools read is 240 KB, 15 KB compressed. Registered before any route.
      await app.register(fastifyCompress, { encodings: ['br', 'gzip'] });
      serveOpenApi(app, document);
      if (!(await servePortal(app, config.PORTAL_DIR))) new Logger('Portal').warn(`no store portal app in ${config.PORTAL_DIR} (no index.html): /portal/ answers 404`);
      return app;
    },
    listen: (app) => app.listen(config.PUBLIC_PORT, config.LISTEN_ADDRESS),
  });
});
