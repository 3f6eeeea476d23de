import { Global, Module, type DynamicModule } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { AtivarWebhookHandler } from './ativar-webhook/ativar-webhook.handler';
import { AtivarWebhookHttpController } from './ativar-webhook/ativar-webhook.http.controller';
import { CifrarSegredosAoIniciar } from './cifrar-segredos/cifrar-segredos';
import { ConsultarEntregaHandler } from './consultar-entrega/consultar-entrega.handler';
import { ConsultarEntregaHttpController } from './consultar-entrega/consultar-entrega.http.controller';
import { ConsultarWebhookHandler } from './consultar-webhook/consultar-webhook.handler';
import { ConsultarWebhookHttpController } from './consultar-webhook/consultar-webhook.http.controller';
import { measureDeliveries } from './despachar-entregas/delivery-metrics';
import { Despachante, LEASE_MS } from './despachar-entregas/despachante';
import { EntregasDevidas } from './despachar-entregas/entregas-devidas';
import { ListarEntregasHandler } from './listar-entregas/listar-entregas.handler';
import { ListarEntregasHttpController } from './listar-entregas/listar-entregas.http.controller';
import { ListarFilaHandler } from './listar-fila/listar-fila.handler';
import { ListarFilaHttpController } from './listar-fila/listar-fila.http.controller';
import { LojasConhecidasERemocaoDoAplicativoMessageController } from './lojas-conhecidas/lojas-conhecidas-e-remocao-do-aplicativo.message.controller';
import { RecuperarEntregasHandler } from './recuperar-entregas/recuperar-entregas.handler';
import { RecuperarEntregasHttpController } from './recuperar-entregas/recuperar-entregas.http.controller';
import { ReenviarEntregaHandler } from './reenviar-entrega/reenviar-entrega.handler';
import { ReenviarEntregaHttpController } from './reenviar-entrega/reenviar-entrega.http.controller';
import { RegistrarNotificacaoMessageController } from './registrar-notificacao/registrar-notificacao.message.controller';
import { RegistrarWebhookHandler } from './registrar-webhook/registrar-webhook.handler';
import { RegistrarWebhookHttpController } from './registrar-webhook/registrar-webhook.http.controller';
import { RemoverDaFilaHandler } from './remover-da-fila/remover-da-fila.handler';
import { RemoverDaFilaHttpController } from './remover-da-fila/remover-da-fila.http.controller';
import { RemoverVariosDaFilaHandler } from './remover-varios-da-fila/remover-varios-da-fila.handler';
import { RemoverVariosDaFilaHttpController } from './remover-varios-da-fila/remover-varios-da-fila.http.controller';
import { RemoverWebhookHandler } from './remover-webhook/remover-webhook.handler';
import { RemoverWebhookHttpController } from './remover-webhook/remover-webhook.http.controller';
import { RotacionarSegredoHandler } from './rotacionar-segredo/rotacionar-segredo.handler';
import { RotacionarSegredoHttpController } from './rotacionar-segredo/rotacionar-segredo.http.controller';
import { TestarWebhookHandler } from './testar-webhook/testar-webhook.handler';
import { TestarWebhookHttpController } from './testar-webhook/testar-webhook.http.controller';
import { DELIVERY_OPTIONS, type DeliveryOptions } from './shared/delivery.options';
import { EnderecoGuard } from './shared/endereco.guard';
import { nomesLocais } from './shared/nomes-locais';
import { VerificacaoUrl } from './shared/verificacao';
import { WebhookClient } from './shared/webhook.client';

/**
 * The public routes of the delivery service (docs/API.md sections 7 and 8): what the OpenAPI
 * document is built from (tools/openapi/api-sources.ts).
 */
@Module({
  controllers: [
    RegistrarWebhookHttpController,
    ConsultarWebhookHttpController,
    RemoverWebhookHttpController,
    AtivarWebhookHttpController,
    RotacionarSegredoHttpController,
    TestarWebhookHttpController,
    ListarEntregasHttpController,
    ConsultarEntregaHttpController,
    ReenviarEntregaHttpController,
    RecuperarEntregasHttpController,
    ListarFilaHttpController,
    RemoverDaFilaHttpController,
    RemoverVariosDaFilaHttpController,
  ],
  providers: [
    VerificacaoUrl,
    RegistrarWebhookHandler,
    ConsultarWebhookHandler,
    RemoverWebhookHandler,
    AtivarWebhookHandler,
    RotacionarSegredoHandler,
    TestarWebhookHandler,
    ListarEntregasHandler,
    ConsultarEntregaHandler,
    ReenviarEntregaHandler,
    RecuperarEntregasHandler,
    ListarFilaHandler,
    RemoverDaFilaHandler,
    RemoverVariosDaFilaHandler,
  ],
})
export class DeliveryHttpModule {}

/** What the HTTP use cases and the dispatcher share: the SSRF guard and the webhook client. */
@Global()
@Module({})
class WebhookSendingModule {
  static register(options: DeliveryOptions): DynamicModule {
    return {
      module: WebhookSendingModule,
      providers: [
        { provide: DELIVERY_OPTIONS, useValue: options },
        { provide: EnderecoGuard, useFactory: () => new EnderecoGuard(options.redesPermitidas, options.servidoresDns, nomesLocais()) },
        { provide: WebhookClient, useFactory: (guard: EnderecoGuard) => new WebhookClient(guard, options.chaveiro, options.caExtra), inject: [EnderecoGuard] },
      ],
      exports: [DELIVERY_OPTIONS, EnderecoGuard, WebhookClient],
    };
  }
}

/**
 * Webhook registrations, push delivery with durable retries, and the per-store queue: the
 * routes, the Kafka consumers that record notifications, and the dispatcher every replica runs.
 */
@Module({})
export class DeliveryModule {
  static register(options: DeliveryOptions): DynamicModule {
    return {
      module: DeliveryModule,
      imports: [WebhookSendingModule.register(options), DeliveryHttpModule],
      controllers: [LojasConhecidasERemocaoDoAplicativoMessageController, RegistrarNotificacaoMessageController],
      providers: [
        CifrarSegredosAoIniciar,
        {
          provide: EntregasDevidas,
          useFactory: (dataSource: DataSource) => {
            measureDeliveries(dataSource);
            return new EntregasDevidas(dataSource, options.agendaMs, LEASE_MS, options.desativarAposMs);
          },
          inject: [getDataSourceToken()],
        },
        {
          provide: Despachante,
          useFactory: (entregas: EntregasDevidas, client: WebhookClient) => new Despachante(entregas, client, options.databaseUrl),
          inject: [EntregasDevidas, WebhookClient],
        },
      ],
    };
  }
}
