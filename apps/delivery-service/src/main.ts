import './tracing';
import { cifrarSegredos, DELIVERY_SERVICE, DeliveryModule, deliveryOptions, deliverySettings } from '@trilha/delivery';
import { serviceConfigSchema } from '@trilha/config';
import { internalServiceSettings, main, runInternalService } from '@trilha/service-runtime';

main(() =>
  runInternalService({
    service: DELIVERY_SERVICE,
    config: serviceConfigSchema({ ...internalServiceSettings, ...deliverySettings }),
    module: (config) => DeliveryModule.register(deliveryOptions(config, config.DATABASE_URL)),
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
  }),
);
