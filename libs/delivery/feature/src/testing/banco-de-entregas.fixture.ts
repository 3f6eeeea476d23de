import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { TOPICS, type EventEnvelope } from '@trilha/contracts';
import type { FlagsEvento } from '@trilha/delivery-domain';
import { novoId } from '@trilha/ids';
import { dataSourceOptions, migrate, type ServiceDatabase } from '@trilha/event-store';
import { testStack } from '@trilha/testing';
import { WebhooksEntregasFila1732000000300 } from '../migrations/1732000000300-webhooks-entregas-fila';
import { WebhooksSaudeRotacaoRecuperacao1732000000410 } from '../migrations/1732000000410-webhooks-saude-rotacao-recuperacao';
import { EntregasTraceparentPrimeira1732000000420 } from '../migrations/1732000000420-entregas-traceparent-primeira';
import { TentativasRequisicaoResposta1732000000510 } from '../migrations/1732000000510-tentativas-requisicao-resposta';
import { registrarNotificacao } from '../registrar-notificacao/registrar-notificacao';
import { EntregasDevidas } from '../despachar-entregas/entregas-devidas';

/** The retry schedule, in ms, of the due deliveries `bancoDeEntregas` gives. */
export const AGENDA = [100, 200, 300, 400, 500];

/** Every event a store's webhook can subscribe to, subscribed. */
const TODOS_OS_EVENTOS: Partial<FlagsEvento> = { atendimentoCriado: true, atendimentoMensagem: true, atendimentoEncerrado: true, aplicativo: true };

/** The delivery tables, migrated in a schema of their own, and how a test fills them. */
export interface BancoDeEntregas {
  /** Connected to the schema from the describe block's beforeAll on. */
  readonly dataSource: DataSource;
  /** Due deliveries over `dataSource`, with AGENDA, a 60 s lease and a 24 h age limit. */
  readonly entregas: EntregasDevidas;
  /** A new store id, one that no store of this schema has yet. */
  novaLoja(): number;
  /** A new store whose webhook registration has exactly these event keys (all four, on, unless told); resolves with its id. */
  lojaComWebhook(eventos?: Partial<FlagsEvento>): Promise<number>;
  /** An event of the store (aplicativo.removido unless told), as the consumer hands it to registrarNotificacao. */
  evento(idLoja: number, type?: string): EventEnvelope;
  /** Registers `evento(idLoja)` for delivery, as the consumer of lojas.events.v1 would; resolves with it. */
  registrar(idLoja: number): Promise<EventEnvelope>;
}

/**
 * Registers, in the calling describe block, a schema of its own in the stack's PostgreSQL with the
 * delivery migrations (created before all its tests, dropped after), and returns its handle.
 */
export function bancoDeEntregas(poolSize = 8): BancoDeEntregas {
  const stack = testStack();
  const schema = `it_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const database: ServiceDatabase = { url: stack.infra.databaseUrl, schema, poolSize, migrations: [WebhooksEntregasFila1732000000300, WebhooksSaudeRotacaoRecuperacao1732000000410, EntregasTraceparentPrimeira1732000000420, TentativasRequisicaoResposta1732000000510] };
  let dataSource: DataSource;
  let entregas: EntregasDevidas;
  let lojas = 0;

  beforeAll(async () => {
    await migrate(database);
    dataSource = await new DataSource(dataSourceOptions(database)).initialize();
    entregas = new EntregasDevidas(dataSource, AGENDA, 60_000, 86_400_000);
  });

  afterAll(async () => {
    await dataSource.query(`DROP SCHEMA ${schema} CASCADE`);
    await dataSource.destroy();
  });

  const novaLoja = () => (lojas += 1);
  const evento = (idLoja: number, type = 'aplicativo.removido'): EventEnvelope => ({
    id: novoId(), type, schemaVersion: 1, occurredAt: new Date().toISOString(), idLoja, correlationId: 'c', causationId: null, traceparent: null,
    data: { idLoja, dataRemocao: new Date().toISOString() },
  });
  return {
    get dataSource() {
      return dataSource;
    },
    get entregas() {
      return entregas;
    },
    novaLoja,
    async lojaComWebhook(eventos = TODOS_OS_EVENTOS) {
      const idLoja = novaLoja();
      await dataSource.query(`INSERT INTO webhooks (id_loja, id_webhook, url, eventos, segredo, criado_em) VALUES ($1, $2, $3, $4, 'whsec_c2VncmVkbw==', now())`, [
        idLoja, novoId(), `https://loja-${idLoja}.example/hook`, JSON.stringify(eventos),
      ]);
      return idLoja;
    },
    evento,
    async registrar(idLoja) {
      const event = evento(idLoja);
      await dataSource.transaction((manager) => registrarNotificacao(manager, TOPICS.lojas, event));
      return event;
    },
  };
}
