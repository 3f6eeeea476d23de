import type { EventEnvelope } from '@trilha/contracts';
import { sleep } from '@trilha/testing';
import { RecuperarEntregasHandler } from '../recuperar-entregas/recuperar-entregas.handler';
import { type ResultadoEnvio } from '../shared';
import { bancoDeEntregas } from '../testing/banco-de-entregas.fixture';
import type { Claimed } from './entregas-devidas';

const resultado = (statusHttp: number): ResultadoEnvio => ({ ok: statusHttp === 200, dataHora: new Date(), url: 'https://loja.example/hook', cabecalhos: null, resposta: null, statusHttp, duracaoMs: 1, erro: statusHttp === 200 ? null : `status ${statusHttp}, esperado 200`, traceparent: null });

describe('webhook operations in PostgreSQL (deactivation with attempts in flight, recovery in order)', () => {
  const banco = bancoDeEntregas();
  const { lojaComWebhook, registrar } = banco;

  const daLoja = async (idLoja: number): Promise<Claimed[]> => (await banco.entregas.claim(100, 100, new Map())).claimed.filter((e) => e.idLoja === idLoja);
  const fila = (idLoja: number): Promise<{ id_evento: string; evento: string; entrega_falhou: boolean; pendente: boolean }[]> =>
    banco.dataSource.query(`SELECT id_evento, evento, entrega_falhou, removido_em IS NULL AS pendente FROM fila WHERE id_loja = $1 ORDER BY posicao`, [idLoja]);
  const status = async (idEvento: string) => (await banco.dataSource.query(`SELECT status FROM entregas WHERE id_evento = $1`, [idEvento]))[0]?.status;

  it('a 410 deactivates the webhook: the attempt in flight keeps its outcome, the waiting ones and later events are queued, in order', async () => {
    const idLoja = await lojaComWebhook();
    const [a, b, c] = [await registrar(idLoja), await registrar(idLoja), await registrar(idLoja)];
    // a fails once and is retried while b's first attempt is in flight; c waits its turn.
    const [primeira] = await daLoja(idLoja);
    await banco.entregas.concluir([{ entrega: primeira, resultado: resultado(500) }]);
    await sleep(150);
    const emVoo = await daLoja(idLoja);
    expect(emVoo.map((e) => e.idEvento).sort()).toEqual([a.id, b.id].sort());
    const retentativa = emVoo.find((e) => e.idEvento === a.id)!;
    const deB = emVoo.find((e) => e.idEvento === b.id)!;

    await banco.entregas.concluir([{ entrega: retentativa, resultado: resultado(410) }]);
    const [webhook] = await banco.dataSource.query(`SELECT ativo, motivo_desativacao, falhas_seguidas FROM webhooks WHERE id_loja = $1`, [idLoja]);
    expect(webhook).toEqual({ ativo: false, motivo_desativacao: expect.stringMatching(/410 Gone/), falhas_seguidas: 2 });
    const d = await registrar(idLoja);
    expect((await fila(idLoja)).map((item) => [item.id_evento, item.evento, item.entrega_falhou])).toEqual([
      [a.id, 'aplicativo.removido', true],
      [expect.any(String), 'webhook.desativado', false],
      [c.id, 'aplicativo.removido', true],
      [d.id, 'aplicativo.removido', true],
    ]);
    expect([await status(a.id), await status(c.id), await status(d.id)]).toEqual(['falhou', 'falhou', 'falhou']);
    // Nothing of the store is claimed while it is inactive; b's attempt still ends as it ends.
    await sleep(150);
    expect(await daLoja(idLoja)).toEqual([]);
    await banco.entregas.concluir([{ entrega: deB, resultado: resultado(200) }]);
    expect(await status(b.id)).toBe('entregue');
    expect((await fila(idLoja)).map((item) => item.id_evento)).not.toContain(b.id);
  });

  it('recovers failed deliveries one at a time in event order; a delivered one leaves the queue, one that fails again stays', async () => {
    const idLoja = await lojaComWebhook();
    const eventos = [await registrar(idLoja), await registrar(idLoja), await registrar(idLoja)];
    await banco.dataSource.query(`UPDATE entregas SET status = 'falhou', tentativas = 6, proxima_em = NULL WHERE id_loja = $1`, [idLoja]);
    await banco.dataSource.query(`INSERT INTO fila (id_loja, id_evento, evento, data, entrega_falhou) SELECT id_loja, id_evento, evento, data, true FROM entregas WHERE id_loja = $1 ORDER BY posicao`, [idLoja]);

    const recuperar = new RecuperarEntregasHandler(banco.dataSource);
    expect(await recuperar.execute(idLoja, new Date(Date.now() - 60_000).toISOString())).toEqual({ quantidade: 3 });
    const respostas = [200, 500, 200];
    for (const [index, evento] of eventos.entries()) {
      const claimed = await daLoja(idLoja);
      expect(claimed.map((e) => e.idEvento)).toEqual([evento.id]);
      await banco.entregas.concluir([{ entrega: claimed[0], resultado: resultado(respostas[index]) }]);
    }
    expect(await daLoja(idLoja)).toEqual([]);
    expect(await Promise.all(eventos.map((evento) => status(evento.id)))).toEqual(['entregue', 'falhou', 'entregue']);
    expect((await fila(idLoja)).map((item) => [item.id_evento, item.pendente])).toEqual([[eventos[0].id, false], [eventos[1].id, true], [eventos[2].id, false]]);
    const [{ sucessos, falhas }] = await banco.dataSource.query(`SELECT sum(sucessos)::int AS sucessos, sum(falhas)::int AS falhas FROM tentativas_por_hora WHERE id_loja = $1`, [idLoja]);
    expect([sucessos, falhas]).toEqual([2, 1]);
  });

  it('recovers what failed since desde: an event that occurred before it counts when an attempt of it failed after it', async () => {
    const idLoja = await lojaComWebhook();
    const [antigo, esquecido, recente] = [await registrar(idLoja), await registrar(idLoja), await registrar(idLoja)];
    const horas = (n: number) => new Date(Date.now() - n * 3_600_000);
    await banco.dataSource.query(`UPDATE entregas SET status = 'falhou', tentativas = 6, proxima_em = NULL, ocorrido_em = $2 WHERE id_loja = $1`, [idLoja, horas(5)]);
    await banco.dataSource.query(`UPDATE entregas SET ocorrido_em = $2 WHERE id_evento = $1`, [recente.id, horas(1)]);
    const tentativa = (evento: EventEnvelope, quando: Date) =>
      banco.dataSource.query(`INSERT INTO tentativas (id_entrega, numero, data_hora, status_http, duracao_ms, erro) SELECT id_entrega, 1, $2, 500, 1, 'status 500' FROM entregas WHERE id_evento = $1`, [evento.id, quando]);
    await tentativa(antigo, horas(2));
    await tentativa(esquecido, horas(4));

    expect(await new RecuperarEntregasHandler(banco.dataSource).execute(idLoja, horas(3).toISOString())).toEqual({ quantidade: 2 });
    const recuperar = await banco.dataSource.query(`SELECT id_evento FROM entregas WHERE id_loja = $1 AND recuperar ORDER BY posicao`, [idLoja]);
    expect(recuperar.map((row: { id_evento: string }) => row.id_evento)).toEqual([antigo.id, recente.id]);
  });
});
