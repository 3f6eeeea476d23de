import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { EventEnvelope } from '@trilha/contracts';
import { FLAGS_PADRAO, type FlagsEvento } from '@trilha/delivery-domain';
import { dataSourceOptions, migrate, type ServiceDatabase } from '@trilha/event-store';
import { testStack } from '@trilha/testing';
import { WebhooksEntregasFila1732000000300 } from '../migrations/1732000000300-webhooks-entregas-fila';
import { WebhooksSaudeRotacaoRecuperacao1732000000410 } from '../migrations/1732000000410-webhooks-saude-rotacao-recuperacao';
import { EntregasTraceparentPrimeira1732000000420 } from '../migrations/1732000000420-entregas-traceparent-primeira';
import { webhookDaLoja } from '../shared/webhooks';
import { registrarNotificacao } from './registrar-notificacao';

describe('registrarNotificacao in PostgreSQL: the registration flags', () => {
  const stack = testStack();
  const schema = `it_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const database: ServiceDatabase = { url: stack.infra.databaseUrl, schema, poolSize: 4, migrations: [WebhooksEntregasFila1732000000300, WebhooksSaudeRotacaoRecuperacao1732000000410, EntregasTraceparentPrimeira1732000000420] };
  let dataSource: DataSource;
  let lojas = 0;

  beforeAll(async () => {
    await migrate(database);
    dataSource = await new DataSource(dataSourceOptions(database)).initialize();
  });

  afterAll(async () => {
    await dataSource.query(`DROP SCHEMA ${schema} CASCADE`);
    await dataSource.destroy();
  });

  /** A store whose registration has exactly these keys, as a registration stored before a flag existed has. */
  async function lojaComEventos(eventos: Partial<FlagsEvento>): Promise<number> {
    const idLoja = (lojas += 1);
    await dataSource.query(`INSERT INTO webhooks (id_loja, id_webhook, url, eventos, segredo, criado_em) VALUES ($1, $2, $3, $4, 'whsec_c2VncmVkbw==', now())`, [
      idLoja, randomUUID(), `https://loja-${idLoja}.example/hook`, JSON.stringify(eventos),
    ]);
    return idLoja;
  }

  async function aplicativoRemovido(idLoja: number) {
    const event: EventEnvelope = {
      id: randomUUID(), type: 'aplicativo.removido', schemaVersion: 1, occurredAt: new Date().toISOString(), idLoja, correlationId: 'c', causationId: null, traceparent: null,
      data: { idLoja, dataRemocao: new Date().toISOString() },
    };
    const destino = await dataSource.transaction((manager) => registrarNotificacao(manager, event));
    const entregas: { status: string }[] = await dataSource.query(`SELECT status FROM entregas WHERE id_evento = $1`, [event.id]);
    return { destino, entregas: entregas.map((entrega) => entrega.status) };
  }

  it("a registration stored without an event's flag gets the event, as the flag's default says", async () => {
    expect(FLAGS_PADRAO.aplicativo).toBe(true);
    const idLoja = await lojaComEventos({ atendimentoCriado: true, atendimentoMensagem: true, atendimentoEncerrado: true });

    expect(await aplicativoRemovido(idLoja)).toEqual({ destino: 'webhook', entregas: ['pendente'] });
    // GET /webhook shows the flag with its default.
    expect((await webhookDaLoja(dataSource.manager, idLoja))?.eventos).toEqual({ atendimentoCriado: true, atendimentoMensagem: true, atendimentoEncerrado: true, aplicativo: true });
  });

  it('a flag stored as false still turns its event off', async () => {
    const idLoja = await lojaComEventos({ atendimentoCriado: true, atendimentoMensagem: true, atendimentoEncerrado: true, aplicativo: false });

    expect(await aplicativoRemovido(idLoja)).toEqual({ destino: 'desligado', entregas: [] });
    expect((await webhookDaLoja(dataSource.manager, idLoja))?.eventos.aplicativo).toBe(false);
  });
});
