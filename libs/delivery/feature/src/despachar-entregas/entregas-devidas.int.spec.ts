import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { eventually, sleep } from '@trilha/testing';
import { RemoverWebhookHandler } from '../remover-webhook/remover-webhook.handler';
import { CANAL_ENTREGAS, type ResultadoEnvio } from '../shared';
import { AGENDA, bancoDeEntregas } from '../testing/banco-de-entregas.fixture';
import { EntregasDevidas, type Claimed } from './entregas-devidas';

const falha = (statusHttp = 500): ResultadoEnvio => ({ ok: false, dataHora: new Date(), url: 'https://loja.example/hook', cabecalhos: null, resposta: null, statusHttp, duracaoMs: 1, erro: `status ${statusHttp}, esperado 200`, traceparent: null });
const sucesso = (): ResultadoEnvio => ({ ok: true, dataHora: new Date(), url: 'https://loja.example/hook', cabecalhos: null, resposta: null, statusHttp: 200, duracaoMs: 1, erro: null, traceparent: null });

describe('due deliveries in PostgreSQL (claims, leases, order, retries)', () => {
  const banco = bancoDeEntregas();
  const { lojaComWebhook, registrar } = banco;

  const todas = async (limite = 100) => (await banco.entregas.claim(limite, 100, new Map())).claimed;
  const daLoja = (lista: Claimed[], idLoja: number) => lista.filter((entrega) => entrega.idLoja === idLoja);

  it('never gives one due delivery to two claims', async () => {
    const ids = await Promise.all(Array.from({ length: 6 }, () => lojaComWebhook()));
    for (const idLoja of ids) await registrar(idLoja);
    const [a, b, c] = await Promise.all([todas(), todas(), todas()]);
    const claimed = [...a, ...b, ...c].filter((entrega) => ids.includes(entrega.idLoja)).map((entrega) => entrega.idEntrega);
    expect(claimed).toHaveLength(6);
    expect(new Set(claimed).size).toBe(6);
    expect(await todas()).toEqual([]);
    await banco.entregas.concluir([...a, ...b, ...c].map((entrega) => ({ entrega, resultado: sucesso() })));
  });

  it('makes a store’s first attempts one after another, in the order of its events, whatever their outcome', async () => {
    // A first retry after 1 s (± 10 %): long enough not to come due during the first claims.
    const lentas = new EntregasDevidas(banco.dataSource, [1000, 2000], 60_000, 86_400_000);
    const claim = async () => daLoja((await lentas.claim(100, 100, new Map())).claimed, idLoja);
    const idLoja = await lojaComWebhook();
    const eventos = [await registrar(idLoja), await registrar(idLoja), await registrar(idLoja)];
    const [primeira] = await claim();
    expect(primeira.idEvento).toBe(eventos[0].id);
    expect(await claim()).toEqual([]);
    await lentas.concluir([{ entrega: primeira, resultado: falha() }]);
    const [segunda] = await claim();
    expect(segunda.idEvento).toBe(eventos[1].id);
    await lentas.concluir([{ entrega: segunda, resultado: sucesso() }]);
    const [terceira] = await claim();
    expect(terceira.idEvento).toBe(eventos[2].id);
    await lentas.concluir([{ entrega: terceira, resultado: sucesso() }]);
    // The first event's retry, in its own time.
    await sleep(1200);
    expect((await claim()).map((entrega) => [entrega.idEvento, entrega.estado.tentativas])).toEqual([[eventos[0].id, 1]]);
  });

  it('claims a store’s next first attempt in the record of the one before, when it succeeded and the store has room; makes it due otherwise', async () => {
    const lentas = new EntregasDevidas(banco.dataSource, [1000, 2000], 60_000, 86_400_000);
    const claim = async (idLoja: number) => daLoja((await lentas.claim(100, 100, new Map())).claimed, idLoja);
    const comVaga = { livre: true, lojasCheias: [] };
    const idLoja = await lojaComWebhook();
    const eventos = [await registrar(idLoja), await registrar(idLoja), await registrar(idLoja)];
    const [primeira] = await claim(idLoja);

    const registro = await lentas.concluir([{ entrega: primeira, resultado: sucesso() }], comVaga);
    expect(registro.claimed.map((entrega) => [entrega.idEvento, entrega.webhook.idLoja])).toEqual([[eventos[1].id, idLoja]]);
    expect(registro.wake).toBe(false);
    // Leased to this replica: no other claim takes it.
    expect(await claim(idLoja)).toEqual([]);

    // A failure may deactivate the webhook at its COMMIT: the next one is made due instead, and
    // the dispatchers are told (NOTIFY).
    const [segunda] = registro.claimed;
    const ouvinte = await (banco.dataSource.driver as PostgresDriver).master.connect();
    try {
      const avisos: string[] = [];
      ouvinte.on('notification', ({ channel }: { channel: string }) => avisos.push(channel));
      await ouvinte.query(`LISTEN ${CANAL_ENTREGAS}`);
      const aposFalha = await lentas.concluir([{ entrega: segunda, resultado: falha() }], comVaga);
      expect(aposFalha).toEqual({ wake: true, claimed: [] });
      expect(await eventually('the NOTIFY of the delivery made due', () => (avisos.includes(CANAL_ENTREGAS) ? true : undefined))).toBe(true);
    } finally {
      await ouvinte.query(`UNLISTEN ${CANAL_ENTREGAS}`);
      ouvinte.release();
    }
    const [terceira] = await claim(idLoja);
    expect(terceira.idEvento).toBe(eventos[2].id);
    await lentas.concluir([{ entrega: terceira, resultado: sucesso() }], comVaga);

    // A store at its cap: its next one is made due for any replica.
    const cheia = await lojaComWebhook();
    const deCheia = [await registrar(cheia), await registrar(cheia)];
    const [umaDeCheia] = await claim(cheia);
    expect(await lentas.concluir([{ entrega: umaDeCheia, resultado: sucesso() }], { livre: true, lojasCheias: [cheia] })).toEqual({ wake: true, claimed: [] });
    expect((await claim(cheia)).map((entrega) => entrega.idEvento)).toEqual([deCheia[1].id]);
  });

  it('lets a store hold only its free slots, and none when it is full', async () => {
    const idLoja = await lojaComWebhook();
    for (let n = 0; n < 4; n += 1) await registrar(idLoja);
    // Four retries due at once: fail each first attempt in turn.
    for (let n = 0; n < 4; n += 1) await banco.entregas.concluir(daLoja(await todas(), idLoja).map((entrega) => ({ entrega, resultado: falha() })));
    await sleep(350);
    expect(daLoja((await banco.entregas.claim(100, 100, new Map([[idLoja, 0]]))).claimed, idLoja)).toEqual([]);
    const duas = daLoja((await banco.entregas.claim(100, 100, new Map([[idLoja, 2]]))).claimed, idLoja);
    expect(duas).toHaveLength(2);
    const resto = daLoja(await todas(), idLoja);
    expect(resto).toHaveLength(2);
    await banco.entregas.concluir([...duas, ...resto].map((entrega) => ({ entrega, resultado: sucesso() })));
  });

  it('makes an attempt whose lease ended due again, and ignores the late outcome of the old claim', async () => {
    const curtas = new EntregasDevidas(banco.dataSource, AGENDA, 200, 86_400_000);
    const idLoja = await lojaComWebhook();
    await registrar(idLoja);
    const [antiga] = daLoja((await curtas.claim(100, 100, new Map())).claimed, idLoja);
    expect(daLoja(await todas(), idLoja)).toEqual([]);
    await sleep(250);
    const [nova] = daLoja(await todas(), idLoja);
    expect(nova.idEntrega).toBe(antiga.idEntrega);
    expect(nova.lease).not.toBe(antiga.lease);
    // The replica that lost its lease reports a success: it changes nothing.
    await banco.entregas.concluir([{ entrega: antiga, resultado: sucesso() }]);
    const [linha] = await banco.dataSource.query(`SELECT status, lease FROM entregas WHERE id_entrega = $1`, [nova.idEntrega]);
    expect(linha).toEqual({ status: 'pendente', lease: nova.lease });
    expect(await banco.dataSource.query(`SELECT * FROM tentativas WHERE id_entrega = $1`, [nova.idEntrega])).toEqual([]);
    await banco.entregas.concluir([{ entrega: nova, resultado: sucesso() }]);
    const [entregue] = await banco.dataSource.query(`SELECT status, lease, proxima_em FROM entregas WHERE id_entrega = $1`, [nova.idEntrega]);
    expect(entregue).toEqual({ status: 'entregue', lease: null, proxima_em: null });
    // Delivered: never due again.
    await sleep(250);
    expect(daLoja(await todas(), idLoja)).toEqual([]);
  });

  it('records every attempt and queues the event after the 6th failure', async () => {
    const idLoja = await lojaComWebhook();
    const evento = await registrar(idLoja);
    for (let tentativa = 1; tentativa <= 6; tentativa += 1) {
      let [entrega] = daLoja(await todas(), idLoja);
      for (let espera = 0; !entrega && espera < 40; espera += 1) {
        await sleep(25);
        [entrega] = daLoja(await todas(), idLoja);
      }
      expect(entrega.estado.tentativas).toBe(tentativa - 1);
      await banco.entregas.concluir([{ entrega, resultado: falha(503) }]);
    }
    const [linha] = await banco.dataSource.query(`SELECT status, tentativas, proxima_em FROM entregas WHERE id_evento = $1`, [evento.id]);
    expect(linha).toEqual({ status: 'falhou', tentativas: 6, proxima_em: null });
    expect(await banco.dataSource.query(`SELECT numero, status_http FROM tentativas t JOIN entregas e USING (id_entrega) WHERE e.id_evento = $1 ORDER BY numero`, [evento.id]))
      .toEqual([1, 2, 3, 4, 5, 6].map((numero) => ({ numero, status_http: 503 })));
    expect(await banco.dataSource.query(`SELECT evento, entrega_falhou, data FROM fila WHERE id_evento = $1`, [evento.id])).toEqual([
      { evento: 'aplicativo.removido', entrega_falhou: true, data: evento.data },
    ]);
  });

  it('records nothing for a disabled event, and queues events of a store without a webhook', async () => {
    const desligada = await lojaComWebhook({ atendimentoCriado: true, atendimentoMensagem: true, atendimentoEncerrado: true, aplicativo: false });
    const evento = await registrar(desligada);
    expect(await banco.dataSource.query(`SELECT 1 FROM entregas WHERE id_evento = $1 UNION ALL SELECT 1 FROM fila WHERE id_evento = $1`, [evento.id])).toEqual([]);
    const semWebhook = await registrar(banco.novaLoja());
    expect(await banco.dataSource.query(`SELECT entrega_falhou FROM fila WHERE id_evento = $1`, [semWebhook.id])).toEqual([{ entrega_falhou: false }]);
  });

  describe('a webhook removed while an attempt is in flight', () => {
    const naFila = (idEvento: string) => banco.dataSource.query(`SELECT entrega_falhou FROM fila WHERE id_evento = $1`, [idEvento]);
    const entrega = (idEvento: string) => banco.dataSource.query(`SELECT status, proxima_em, lease FROM entregas WHERE id_evento = $1`, [idEvento]);
    const remover = (idLoja: number) => new RemoverWebhookHandler(banco.dataSource).execute(idLoja);

    it('lets the attempt’s outcome decide: a 200 delivers it, a failure queues it; the others go to the queue at once', async () => {
      const [entregue, falhada] = [await lojaComWebhook(), await lojaComWebhook()];
      const [primeiro, segundo, outro] = [await registrar(entregue), await registrar(entregue), await registrar(falhada)];
      const emVoo = (await todas()).filter((e) => [entregue, falhada].includes(e.idLoja));
      expect(emVoo.map((e) => e.idEvento).sort()).toEqual([primeiro.id, outro.id].sort());
      await remover(entregue);
      await remover(falhada);
      // The store's later event was waiting its turn: it is queued, the ones in flight are not.
      expect(await naFila(segundo.id)).toEqual([{ entrega_falhou: false }]);
      expect(await naFila(primeiro.id)).toEqual([]);
      expect(await naFila(outro.id)).toEqual([]);

      await banco.entregas.concluir(emVoo.map((e) => ({ entrega: e, resultado: e.idLoja === entregue ? sucesso() : falha() })));
      expect(await entrega(primeiro.id)).toEqual([{ status: 'entregue', proxima_em: null, lease: null }]);
      expect(await naFila(primeiro.id)).toEqual([]);
      // No retry: without a webhook the failed attempt was the last, and the event is queued.
      expect(await entrega(outro.id)).toEqual([{ status: 'falhou', proxima_em: null, lease: null }]);
      expect(await naFila(outro.id)).toEqual([{ entrega_falhou: true }]);
    });

    it('queues a delivery whose attempt never reported (its replica died) when it is claimed again', async () => {
      const curtas = new EntregasDevidas(banco.dataSource, AGENDA, 200, 86_400_000);
      const idLoja = await lojaComWebhook();
      const evento = await registrar(idLoja);
      const [antiga] = daLoja((await curtas.claim(100, 100, new Map())).claimed, idLoja);
      await remover(idLoja);
      expect(await naFila(evento.id)).toEqual([]);
      await sleep(250);
      const { claimed, orfas } = await banco.entregas.claim(100, 100, new Map());
      expect(daLoja(claimed, idLoja)).toEqual([]);
      const daLojaOrfas = orfas.filter((orfa) => orfa.idLoja === idLoja);
      expect(daLojaOrfas.map((orfa) => orfa.idEntrega)).toEqual([antiga.idEntrega]);
      await banco.entregas.enfileirarOrfas(daLojaOrfas);
      expect(await naFila(evento.id)).toEqual([{ entrega_falhou: false }]);
      expect(await entrega(evento.id)).toEqual([]);
      // The dead claim's late outcome changes nothing.
      await banco.entregas.concluir([{ entrega: antiga, resultado: sucesso() }]);
      expect(await entrega(evento.id)).toEqual([]);
    });
  });
});
