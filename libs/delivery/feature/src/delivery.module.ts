import { Module } from '@nestjs/common';
import { LojasConhecidasMessageController } from './lojas-conhecidas/lojas-conhecidas.message.controller';

/** Webhook registrations, push delivery with durable retries, and the per-store queue. */
@Module({ controllers: [LojasConhecidasMessageController] })
export class DeliveryModule {}
