// Where the webhook benchmarks' events come from (bench/webhook-latency.mjs --source=…), and
// where each one's latency starts.
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { clientAddress } from './bench-stack.mjs';

const require = createRequire(import.meta.url);
const { Kafka, logLevel, Partitioners } = require('kafkajs');

/**
 * Where the events come from. `gateway`: POST /admin/lojas/{idLoja}/aplicativo/remover, each
 * committing an `aplicativo.removido` in the gateway (its outbox relay takes it to Kafka); its
 * commit time is gateway.events.occurred_at. `kafka`: a contract-conformant
 * `atendimento.mensagem` produced straight to atendimento.events.v1 (acks=-1), as an outbox
 * relay publishes right after a commit; its time is taken just before the send. The second
 * measures the delivery service alone; the first, the whole way from a committed event.
 */
export function eventSource(kind, { api, adminKey, stores, db, kafkaBrokers }) {
  if (kind === 'atendimento') {
    return {
      fire: async (i) => {
        const { token } = stores[i % stores.length];
        const response = await api('POST', '/atendimentos', {
          token,
          headers: clientAddress(),
          body: { canal: 'chat', tipo: 'duvida', dadosCliente: { nome: `Cliente ${i}` } },
        });
        return response.status === 201 ? response.body.idAtendimento : undefined;
      },
      async committed(accepted) {
        const { rows } = await db.query(
          `SELECT event_id::text AS id, occurred_at FROM atendimento.events
           WHERE type = 'atendimento.criado' AND stream_id = ANY($1::text[])`,
          [accepted.map((idAtendimento) => `atendimento-${idAtendimento}`)],
        );
        return new Map(rows.map((row) => [row.id, row.occurred_at.getTime()]));
      },
      close: async () => undefined,
    };
  }
  if (kind === 'gateway') {
    return {
      fire: async (i) => {
        const idLoja = stores[i % stores.length].idLoja;
        const response = await api('POST', `/admin/lojas/${idLoja}/aplicativo/remover`, { headers: { 'x-admin-key': adminKey, ...clientAddress() } });
        return response.status === 202 ? response.body : undefined;
      },
      async committed(accepted) {
        const { rows } = await db.query(
          `SELECT e.event_id::text AS id, e.occurred_at
           FROM unnest($1::int[], $2::text[]) AS r(id_loja, data_remocao)
           JOIN gateway.events e ON e.id_loja = r.id_loja AND e.type = 'aplicativo.removido' AND e.data->>'dataRemocao' = r.data_remocao`,
          [accepted.map((a) => a.idLoja), accepted.map((a) => a.dataRemocao)],
        );
        return new Map(rows.map((row) => [row.id, row.occurred_at.getTime()]));
      },
      close: async () => undefined,
    };
  }
  const producer = new Kafka({ brokers: [kafkaBrokers], clientId: 'bench', logLevel: logLevel.NOTHING }).producer({ createPartitioner: Partitioners.DefaultPartitioner });
  const connected = producer.connect();
  return {
    fire: async (i) => {
      await connected;
      const idLoja = stores[i % stores.length].idLoja;
      const at = Date.now();
      const now = new Date(at).toISOString();
      const event = {
        id: randomUUID(), type: 'atendimento.mensagem', schemaVersion: 1, occurredAt: now, idLoja, correlationId: randomUUID(), causationId: null, traceparent: null,
        data: { idAtendimento: `bench-${idLoja}`, idLoja, canal: 'chat', direcao: 'entrada', remetente: 'cliente', mensagem: `mensagem ${i}`, dataHora: now },
      };
      await producer.send({ topic: 'atendimento.events.v1', acks: -1, messages: [{ key: String(idLoja), value: JSON.stringify(event) }] });
      return { id: event.id, at };
    },
    committed: async (accepted) => new Map(accepted.map((a) => [a.id, a.at])),
    close: () => producer.disconnect(),
  };
}

/** What each --source sends, and where its latency starts. */
export const SOURCE_DESCRIPTIONS = {
  gateway: { from: 'committed (api-gateway)', load: 'aplicativo.removido via the operator route' },
  atendimento: { from: 'committed (atendimento-service)', load: 'POST /v1/atendimentos with a store token, atendimento.criado notified' },
  kafka: { from: 'produced to Kafka', load: 'atendimento.mensagem produced to atendimento.events.v1' },
};
