import { createSocket } from 'node:dgram';
import type { AddressInfo } from 'node:net';
import { Kafka, logLevel } from 'kafkajs';
import { Client } from 'pg';
import { TOPICS } from '@trilha/contracts';
import { atendimentoMensagem, createStore, eventPublisher, eventually, pidOnPort, registerWebhook, startReplica, testStack, WebhookReceiver, type Replica } from '@trilha/testing';

const stack = testStack();
const kafka = eventPublisher(stack);
const LENTAS = 8;

afterAll(() => kafka.close());

/** The conversation every message of this file belongs to. */
const conversa = { idAtendimento: 'at-dns', canal: 'chat' } as const;

/** Whether every consumer group of the delivery service has exactly `membros` members, settled. */
async function gruposCom(admin: ReturnType<Kafka['admin']>, membros: number): Promise<true | undefined> {
  const ids = (await admin.listGroups()).groups.map((group) => group.groupId).filter((id) => id.startsWith('delivery-service'));
  const { groups } = await admin.describeGroups(ids);
  return (ids.length > 0 && groups.every((group) => group.state === 'Stable' && group.members.length === membros)) || undefined;
}

describe('webhook hosts resolved with their own timeout, inside the attempt’s budget', () => {
  it('a DNS server that never answers fails the attempt in Portuguese within 10 s, delays no other store, and makes no duplicate attempt', async () => {
    // A DNS server on loopback that reads every query and answers none.
    const dns = createSocket('udp4');
    let consultas = 0;
    dns.on('message', () => (consultas += 1));
    await new Promise<void>((resolve) => dns.bind(0, '127.0.0.1', resolve));
    const receiver = await WebhookReceiver.start(stack);
    const db = new Client({ connectionString: stack.infra.databaseUrl });
    await db.connect();
    const admin = new Kafka({ brokers: [stack.infra.kafkaBrokers], clientId: 'trilha-tests-dns', logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    const replicas: Replica[] = [];
    const principal = pidOnPort(stack.ports.ops['delivery-service']);
    try {
      // Registered through the API (its verification reaches the receiver by `localhost`); then
      // the slow stores' URLs get a host name that only the silent DNS server is asked about.
      const rapida = await createStore('Loja DNS Rápida');
      await registerWebhook(rapida, receiver.url('/dns-rapida'));
      const lentas = await Promise.all(Array.from({ length: LENTAS }, async (_, n) => {
        const loja = await createStore(`Loja DNS Lenta ${n}`);
        await registerWebhook(loja, receiver.url(`/dns-lenta-${n}`));
        return loja.idLoja;
      }));
      await db.query(`UPDATE delivery.webhooks w SET url = l.url FROM unnest($1::int[], $2::text[]) AS l(id_loja, url) WHERE w.id_loja = l.id_loja`, [
        lentas,
        lentas.map((_, n) => receiver.url(`/dns-lenta-${n}`).replace('localhost', `lenta-${n}.trilha.test`)),
      ]);

      // Two replicas that ask the silent server, and no other dispatcher: the stack's own
      // delivery service is stopped (SIGSTOP) until the end, and its consumers' partitions pass
      // to the replicas once Kafka gives up on it.
      for (const n of [50, 51]) {
        replicas.push(await startReplica(stack, 'delivery-service', `delivery-service-dns-${n}`, {
          OPS_PORT: String(stack.ports.ops['delivery-service'] + n),
          INTERNAL_PORT: String(stack.ports.internal['delivery-service'] + n),
          WEBHOOK_DNS_SERVERS: `127.0.0.1:${(dns.address() as AddressInfo).port}`,
        }));
      }
      process.kill(principal, 'SIGSTOP');
      await eventually('the replicas alone in the delivery service’s consumer groups', () => gruposCom(admin, 2), 90_000, 1000);

      await kafka.publish(TOPICS.atendimento, lentas.flatMap((idLoja) => [atendimentoMensagem(idLoja, 'oi', conversa), atendimentoMensagem(idLoja, 'oi', conversa)]));
      await eventually('the slow stores’ hosts asked of the silent DNS server', () => consultas >= LENTAS || undefined);
      // Meanwhile another store's events go out at once, one after another.
      const latencias: number[] = [];
      for (let n = 0; n < 10; n += 1) {
        const evento = atendimentoMensagem(rapida.idLoja, 'oi', conversa);
        const enviado = Date.now();
        await kafka.publish(TOPICS.atendimento, [evento]);
        const request = await eventually('the other store’s event', () => receiver.requests('/dns-rapida').find((r) => r.headers['webhook-id'] === evento.id));
        latencias.push(request.at - enviado);
      }
      expect(Math.max(...latencias)).toBeLessThan(1000);
      expect([...receiver.confirmations('/dns-rapida').values()]).toEqual(Array.from({ length: 10 }, () => 1));

      // Every slow store's first attempt fails within the 10 s budget, saying why.
      type Tentativa = { id_loja: number; id_entrega: string; numero: number; data_hora: Date; duracao_ms: number; erro: string };
      const tentativas = await eventually('the slow stores’ first attempts recorded', async () => {
        const { rows } = await db.query<Tentativa>(
          `SELECT e.id_loja, t.* FROM delivery.tentativas t JOIN delivery.entregas e USING (id_entrega) WHERE e.id_loja = ANY($1::int[]) ORDER BY t.id_entrega, t.numero`,
          [lentas],
        );
        return new Set(rows.map((row) => row.id_loja)).size === LENTAS ? rows : undefined;
      }, 30_000, 250);
      for (const tentativa of tentativas) {
        const host = `lenta-${lentas.indexOf(tentativa.id_loja)}.trilha.test`;
        expect(tentativa.erro).toBe(`host não resolvido em 5 s: ${host} (o servidor DNS não respondeu)`);
        expect(tentativa.duracao_ms).toBeGreaterThanOrEqual(1_000);
        expect(tentativa.duracao_ms).toBeLessThan(10_000);
      }
      // No attempt of a delivery began before the one before it had ended (no second replica
      // took it over while it ran), and none reached a receiver.
      tentativas.forEach((tentativa, index) => {
        const anterior = tentativas[index - 1];
        if (anterior?.id_entrega !== tentativa.id_entrega) return;
        expect(tentativa.numero).toBe(anterior.numero + 1);
        expect(tentativa.data_hora.getTime()).toBeGreaterThanOrEqual(anterior.data_hora.getTime() + anterior.duracao_ms);
      });
      expect(lentas.flatMap((_, n) => receiver.notifications(`/dns-lenta-${n}`))).toEqual([]);
    } finally {
      process.kill(principal, 'SIGCONT');
      await Promise.all(replicas.map((replica) => replica.stop()));
      await admin.disconnect();
      await db.end();
      await receiver.close();
      dns.close();
    }
    await eventually('the stack’s delivery service ready again', async () => {
      const response = await fetch(`http://127.0.0.1:${stack.ports.ops['delivery-service']}/readyz`).catch(() => undefined);
      return response?.ok || undefined;
    }, 60_000, 500);
  }, 240_000);
});
