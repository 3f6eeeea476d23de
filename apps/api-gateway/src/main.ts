import './tracing';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { loadConfigOrExit } from '@trilha/config';
import { bodyParserErrorHandler, httpsOnlyMiddleware, jsonBodyParser, ProblemDetailsFilter, requestIdMiddleware, strictValidationPipe } from '@trilha/http';
import { LojasProjection } from '@trilha/lojas';
import { main, runService } from '@trilha/service-runtime';
import { AppModule } from './app.module';
import { gatewayConfigSchema, gatewayDatabase } from './config';
import { serveOpenApi } from './openapi';

main(async () => {
  const config = loadConfigOrExit(gatewayConfigSchema);
  const httpsOptions = config.TLS_TERMINATED_BY_PROXY
    ? undefined
    : { cert: readFileSync(config.TLS_CERT_FILE!), key: readFileSync(config.TLS_KEY_FILE!) };
  await runService({
    name: 'api-gateway',
    database: gatewayDatabase(config),
    kafkaBrokers: config.KAFKA_BROKERS,
    opsPort: config.OPS_PORT,
    projections: [new LojasProjection()],
    // Every replica reads every store event (its own group): deactivations reach all of them.
    consumer: { groupId: `api-gateway-${config.INSTANCE_ID ?? `${hostname()}-${randomUUID().slice(0, 8)}`}`, fromBeginning: false },
    async createApp() {
      const app = await NestFactory.create<NestExpressApplication>(AppModule.register(config), { httpsOptions, bufferLogs: true, bodyParser: false });
      app.set('trust proxy', config.TRUSTED_PROXIES);
      app.disable('x-powered-by');
      app.use(requestIdMiddleware, httpsOnlyMiddleware, jsonBodyParser, bodyParserErrorHandler);
      app.setGlobalPrefix('v1');
      app.useGlobalPipes(strictValidationPipe());
      app.useGlobalFilters(new ProblemDetailsFilter());
      serveOpenApi(app);
      return app;
    },
    listen: (app) => app.listen(config.PUBLIC_PORT),
  });
});
