import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { TOPICS } from '@trilha/contracts';
import { atendimentoEncerrado, createStore, eventPublisher, eventually, metricValue, queueWith, serviceLogs, testStack } from '@trilha/testing';

const stack = testStack();
const kafka = eventPublisher(stack);
const CONSUMER = 'delivery.notificacoes';

afterAll(() => kafka.close());

/** The conversation every event of this file closes. */
const conversa = { idAtendimento: 'at-estacionado', canal: 'email', resumo: 'ok' } as const;

/** `main.js parked …` of the delivery service, as an operator runs it. */
function parked(...args: string[]) {
  const run = spawnSync(process.execPath, [join(__dirname, '../../../dist/apps/delivery-service/src/main.js'), 'parked', ...args], {
    env: { ...process.env, ...stack.env['delivery-service'] },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** The listed messages of one store, as `#id … key=<idLoja> …` lines with their reasons. */
const listedFor = (stdout: string, idLoja: number) =>
  stdout.split(/\n(?=#)/).filter((entry) => entry.includes(` key=${idLoja} `)).map((entry) => ({
    id: /^#(\d+)/.exec(entry)![1],
    offset: /@(\d+) /.exec(entry)![1],
    reason: /reason: (.*)/.exec(entry)![1],
  }));

describe('messages a consumer cannot handle are parked, never skipped', () => {
  it('parks a poison message and an invalid event, handles the message behind them, and replays on request', async () => {
    const loja = await createStore();
    const antes = await metricValue(stack.ports.ops['delivery-service'], `trilha_messages_parked_total{consumer="${CONSUMER}",topic="${TOPICS.atendimento}"}`);
    const invalido = atendimentoEncerrado(loja.idLoja, { ...conversa, dataEncerramento: 'ontem à tarde' });
    const valido = atendimentoEncerrado(loja.idLoja, { ...conversa, dataEncerramento: new Date().toISOString() });
    // One store's messages share a partition: the valid one comes after both bad ones.
    await kafka.publishRaw(TOPICS.atendimento, [{ key: String(loja.idLoja), value: '{"id": "não é JSON\u0000' }]);
    await kafka.publish(TOPICS.atendimento, [invalido, valido]);

    const fila = await queueWith(loja, 1);
    expect(fila.eventos[0]).toMatchObject({ evento: 'atendimento.encerrado', data: valido.data });

    const lista = parked('list');
    expect(lista.status).toBe(0);
    const estacionadas = listedFor(lista.stdout, loja.idLoja);
    expect(estacionadas).toEqual([
      { id: expect.any(String), offset: expect.any(String), reason: expect.stringMatching(/^invalid message: .*JSON/) },
      { id: expect.any(String), offset: expect.any(String), reason: expect.stringMatching(/^invalid message: data\.dataEncerramento/) },
    ]);
    expect(await metricValue(stack.ports.ops['delivery-service'], `trilha_messages_parked_total{consumer="${CONSUMER}",topic="${TOPICS.atendimento}"}`)).toBe(antes + 2);
    expect(await metricValue(stack.ports.ops['delivery-service'], `trilha_parked_messages{consumer="${CONSUMER}"}`)).toBeGreaterThanOrEqual(2);
    // The operator's error line carries the event's trace.
    const linha = serviceLogs(stack.dataDir, 'delivery-service').find((line) => line.msg === 'parked message' && line.parkedId === estacionadas[1].id);
    expect(linha).toMatchObject({ level: 'error', consumer: CONSUMER, traceId: invalido.traceparent!.split('-')[1] });

    // Replayed, the invalid event reaches the same consumer again: still invalid, parked anew.
    const replay = parked('replay', estacionadas[1].id);
    expect(replay.stderr).toMatch(new RegExp(`replayed #${estacionadas[1].id} to ${CONSUMER}`));
    expect(replay.status).toBe(0);
    const depois = await eventually('the replayed event parked again', () => {
      const agora = listedFor(parked('list').stdout, loja.idLoja);
      return agora.length === 2 && agora[1].id !== estacionadas[1].id ? agora : undefined;
    }, undefined, 500);
    expect(depois[0]).toEqual(estacionadas[0]);
    expect(Number(depois[1].offset)).toBeGreaterThan(Number(estacionadas[1].offset));
    expect(listedFor(parked('list', '--all').stdout, loja.idLoja)).toHaveLength(3);
    // Nothing reached the store twice, and an unknown id is refused.
    expect((await queueWith(loja, 1)).eventos).toHaveLength(1);
    const desconhecida = parked('replay', '999999999');
    expect(desconhecida.status).toBe(1);
    expect(desconhecida.stderr).toMatch(/no parked message waiting with id 999999999/);
  });
});
