import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { Client } from 'pg';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { TOPICS } from '@trilha/contracts';
import { apiClient, atendimentoMensagem, createStore, eventPublisher, eventually, pidOnPort, registerWebhook, startReplica, testStack, WebhookReceiver, type ReceivedRequest, type Replica } from '@trilha/testing';

const stack = testStack();
const api = apiClient(stack.baseUrl, stack.caFile);
const kafka = eventPublisher(stack);
const receiver = WebhookReceiver.forTestFile(stack);
const db = new Client({ connectionString: stack.infra.databaseUrl });
/** The stack's keyring (tools/stack.mjs): one key, `local1`. */
const CHAVES_DA_STACK = stack.env['delivery-service'].WEBHOOK_SECRET_KEYS;

beforeAll(() => db.connect());
afterAll(async () => {
  await kafka.close();
  await db.end();
});

/** `main.js <args>` of the delivery service, as an operator runs it, with the stack's settings over `env`. */
function mainJs(args: string[], env: Record<string, string> = {}) {
  const run = spawnSync(process.execPath, [join(__dirname, '../../../dist/apps/delivery-service/src/main.js'), ...args], {
    env: { ...process.env, ...stack.env['delivery-service'], ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: run.status, stderr: run.stderr };
}
const recifrar = (chaves: string) => mainJs(['reencrypt-webhook-secrets'], { WEBHOOK_SECRET_KEYS: chaves });

/** What `delivery.webhooks` holds of the store's secrets. */
async function guardados(idLoja: number): Promise<{ segredo: string; segredo_anterior: string | null }> {
  const { rows } = await db.query(`SELECT segredo, segredo_anterior FROM delivery.webhooks WHERE id_loja = $1`, [idLoja]);
  return rows[0];
}

/** Publishes a message for the store; resolves with the delivery its receiver path got. */
async function entregue(idLoja: number, path: string): Promise<ReceivedRequest> {
  const evento = atendimentoMensagem(idLoja);
  await kafka.publish(TOPICS.atendimento, [evento]);
  return eventually('the delivery', () => receiver.notifications(path).find((request) => request.headers['webhook-id'] === evento.id), 90_000);
}

/** Whether the delivery carries a signature this secret verifies (Standard Webhooks). */
function verifica(segredo: string, request: ReceivedRequest): boolean {
  try {
    new StandardWebhook(segredo).verify(request.body, request.headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
}

/** Neither the secret nor its key bytes appear in what is stored. */
const semSegredo = (guardado: string | null, segredo: string) => guardado !== null && !guardado.includes(segredo.slice('whsec_'.length, 30));

describe('webhook signing secrets encrypted at rest (WEBHOOK_SECRET_KEYS)', () => {
  let cadastrada: { idLoja: number; segredos: [string, string] };
  let emClaro: { idLoja: number; segredo: string };

  it('stores no secret in clear after registration and after a rotation, and deliveries verify with the secrets the store was given', async () => {
    const loja = await createStore();
    const { segredo: s1 } = await registerWebhook(loja, receiver.url('/cifrada'));
    const registrado = await guardados(loja.idLoja);
    expect(registrado.segredo).toMatch(/^v1:local1:[\w-]{16}:[\w-]+$/);
    expect(semSegredo(registrado.segredo, s1)).toBe(true);

    const rotacao = await api('POST', '/webhook/segredo/rotacionar', { token: loja.token });
    expect(rotacao.status).toBe(200);
    const s2: string = rotacao.body.segredo;
    const rotacionado = await guardados(loja.idLoja);
    expect(rotacionado.segredo).toMatch(/^v1:local1:/);
    expect(rotacionado.segredo_anterior).toBe(registrado.segredo);
    expect([s1, s2].every((segredo) => semSegredo(rotacionado.segredo, segredo) && semSegredo(rotacionado.segredo_anterior, segredo))).toBe(true);

    const entrega = await entregue(loja.idLoja, '/cifrada');
    expect(verifica(s2, entrega)).toBe(true);
    expect(verifica(`whsec_${randomBytes(32).toString('base64')}`, entrega)).toBe(false);
    cadastrada = { idLoja: loja.idLoja, segredos: [s2, s1] };
  });

  it('reads a secret stored in clear, and main.js reencrypt-webhook-secrets encrypts it, once', async () => {
    const loja = await createStore();
    await registerWebhook(loja, receiver.url('/em-claro'));
    // As a registration stored before encryption at rest holds it.
    const segredo = `whsec_${randomBytes(32).toString('base64')}`;
    await db.query(`UPDATE delivery.webhooks SET segredo = $2 WHERE id_loja = $1`, [loja.idLoja, segredo]);
    expect(verifica(segredo, await entregue(loja.idLoja, '/em-claro'))).toBe(true);

    const execucao = recifrar(CHAVES_DA_STACK);
    expect(execucao.status).toBe(0);
    expect(execucao.stderr).toMatch(/delivery-service: re-encrypted [1-9]\d* of [1-9]\d* webhook secret\(s\) under key "local1"/);
    const cifrado = await guardados(loja.idLoja);
    expect(cifrado.segredo).toMatch(/^v1:local1:/);
    expect(semSegredo(cifrado.segredo, segredo)).toBe(true);
    expect(verifica(segredo, await entregue(loja.idLoja, '/em-claro'))).toBe(true);

    // Again: nothing left to do.
    const denovo = recifrar(CHAVES_DA_STACK);
    expect(denovo.stderr).toMatch(/done: 0 webhook secret\(s\) re-encrypted, every one now under key "local1"/);
    expect((await guardados(loja.idLoja)).segredo).toBe(cifrado.segredo);
    emClaro = { idLoja: loja.idLoja, segredo };
  });

  it('a new key put first: the command re-encrypts every secret under it; with the old key dropped a starting process encrypts what is in clear and deliveries still verify; a keyring without the new key is refused', async () => {
    const nova = `k2:${randomBytes(32).toString('base64')}`;
    const admin = new Kafka({ brokers: [stack.infra.kafkaBrokers], clientId: 'trilha-tests-chaves', logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    const principal = pidOnPort(stack.ports.ops['delivery-service']);
    let replica: Replica | undefined;
    try {
      const rotacao = recifrar(`${nova},${CHAVES_DA_STACK}`);
      expect(rotacao.status).toBe(0);
      expect(rotacao.stderr).toMatch(/done: [1-9]\d* webhook secret\(s\) re-encrypted, every one now under key "k2"/);
      const { rows } = await db.query<{ fora: number }>(`SELECT count(*)::int AS fora FROM delivery.webhooks WHERE NOT starts_with(segredo, 'v1:k2:') OR NOT starts_with(segredo_anterior, 'v1:k2:')`);
      expect(rows[0].fora).toBe(0);

      // The old key alone cannot read them: the command (and the service's start-up) stop naming the variable.
      const semNova = recifrar(CHAVES_DA_STACK);
      expect(semNova.status).toBe(1);
      const fatal = JSON.parse(semNova.stderr.trim().split('\n').pop()!) as { msg: string; error: string };
      expect(fatal).toMatchObject({ msg: 'start-up failed', error: expect.stringMatching(/^WEBHOOK_SECRET_KEYS lacks the key\(s\) "k2" \(\d+ webhook\(s\)\)/) });
      expect(semNova.stderr).not.toContain(nova.slice(3));

      // A secret stored in clear meanwhile: the next process to start encrypts it.
      await db.query(`UPDATE delivery.webhooks SET segredo = $2 WHERE id_loja = $1`, [emClaro.idLoja, emClaro.segredo]);
      // Only the new key: a replica delivers alone (the stack's own process, with the old key, paused).
      replica = await startReplica(stack, 'delivery-service', 'delivery-service-chave-nova', {
        OPS_PORT: String(stack.ports.ops['delivery-service'] + 60),
        INTERNAL_PORT: String(stack.ports.internal['delivery-service'] + 60),
        WEBHOOK_SECRET_KEYS: nova,
      });
      expect((await guardados(emClaro.idLoja)).segredo).toMatch(/^v1:k2:/);
      process.kill(principal, 'SIGSTOP');
      await eventually('the replica alone in the delivery service’s consumer groups', async () => {
        const ids = (await admin.listGroups()).groups.map((group) => group.groupId).filter((id) => id.startsWith('delivery-service'));
        const { groups } = await admin.describeGroups(ids);
        return (ids.length > 0 && groups.every((group) => group.state === 'Stable' && group.members.length === 1)) || undefined;
      }, 90_000, 1000);
      expect(verifica(cadastrada.segredos[0], await entregue(cadastrada.idLoja, '/cifrada'))).toBe(true);
      expect(verifica(emClaro.segredo, await entregue(emClaro.idLoja, '/em-claro'))).toBe(true);
    } finally {
      // Back under the stack's key, for the stack's own process.
      expect(recifrar(`${CHAVES_DA_STACK},${nova}`).status).toBe(0);
      process.kill(principal, 'SIGCONT');
      await replica?.stop();
      await admin.disconnect();
    }
    await eventually('the stack’s delivery service ready again', async () => {
      const response = await fetch(`http://127.0.0.1:${stack.ports.ops['delivery-service']}/readyz`).catch(() => undefined);
      return response?.ok || undefined;
    }, 60_000, 500);
  }, 240_000);
});
