import './tracing';
import { cifrarSegredos, DeliveryModule, deliveryOptions, deliverySettings, EntregasTraceparentPrimeira1732000000420, LojasConhecidas1732000000200, WebhooksEntregasFila1732000000300, WebhooksSaudeRotacaoRecuperacao1732000000410 } from '@trilha/delivery';
import { serviceConfigSchema } from '@trilha/config';
import { EventStoreModule } from '@trilha/event-store';
import { loggingModule } from '@trilha/observability';
import { internalServiceSettings, main, runInternalService } from '@trilha/service-runtime';

main(() =>
  runInternalService({
    name: 'delivery-service',
    schema: 'delivery',
    migrations: [LojasConhecidas1732000000200, WebhooksEntregasFila1732000000300, WebhooksSaudeRotacaoRecuperacao1732000000410, EntregasTraceparentPrimeira1732000000420],
    config: serviceConfigSchema({ ...internalServiceSettings, ...deliverySettings }),
    consumes: true,
    // Recording a notification is one short transaction: every partition of the topic at once
    // (each store's events still in order) lets their commits share PostgreSQL's WAL flushes.
    // DATABASE_POOL_SIZE must leave room for them and the dispatcher (20 in tools/stack.mjs).
    consumerPartitions: 12,
    commands: (config) => ({
      // After a new key was put first in WEBHOOK_SECRET_KEYS: every secret under it, so the old key can go.
      'reencrypt-webhook-secrets': async (dataSource, args, progress) => {
        if (args.length > 0) throw new Error('usage: main.js reencrypt-webhook-secrets');
        const feitos = await cifrarSegredos(dataSource, config.WEBHOOK_SECRET_KEYS, 'fora-da-chave-atual', progress);
        progress(`done: ${feitos} webhook secret(s) re-encrypted, every one now under key "${config.WEBHOOK_SECRET_KEYS.idAtual}"`);
      },
    }),
    module: (config, database, kafka) => ({
      module: class DeliveryServiceModule {},
      imports: [
        loggingModule('delivery-service', config.LOG_LEVEL),
        EventStoreModule.forService({
          service: 'delivery-service',
          database,
          runMigrations: config.DB_MIGRATIONS_RUN,
          kafka,
          routing: () => [],
          projections: [],
        }),
        DeliveryModule.register(deliveryOptions(config, database.url)),
      ],
    }),
  }),
);
