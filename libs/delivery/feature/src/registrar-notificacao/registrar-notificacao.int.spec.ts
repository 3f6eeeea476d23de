import { randomUUID } from 'node:crypto';
import { TOPICS, type EventEnvelope, type TopicName } from '@trilha/contracts';
import { FLAGS_PADRAO } from '@trilha/delivery-domain';
import { compactTransaction, writeAtCommit } from '@trilha/event-store';
import type { Claimed } from '../despachar-entregas/entregas-devidas';
import { webhookDaLoja, type ResultadoEnvio } from '../shared';
import { bancoDeEntregas } from '../testing/banco-de-entregas.fixture';
import { eventosNotificados, registrarNotificacao } from './registrar-notificacao';

describe('registrarNotificacao in PostgreSQL: what NOTIFICATIONS names, and nothing else', () => {
  const banco = bancoDeEntregas(4);

  /** Where the event went, read from `topic`: the queue, deliveries. */
  async function registrado(topic: TopicName, event: EventEnvelope) {
    await banco.dataSource.transaction((manager) => registrarNotificacao(manager, topic, event));
    const naFila: unknown[] = await banco.dataSource.query(`SELECT 1 FROM fila WHERE id_evento = $1`, [event.id]);
    const entregas: unknown[] = await banco.dataSource.query(`SELECT 1 FROM entregas WHERE id_evento = $1`, [event.id]);
    return { naFila: naFila.length, entregas: entregas.length };
  }

  it('takes from each topic only the event types the list names there', () => {
    expect(eventosNotificados(TOPICS.atendimento)).toEqual(['atendimento.criado', 'atendimento.mensagem', 'atendimento.encerrado']);
    expect(eventosNotificados(TOPICS.lojas)).toEqual(['aplicativo.removido']);
    expect(eventosNotificados(TOPICS.tracking)).toEqual([]);
  });

  it('never queues an event a topic carries for another purpose, nor a notification read from another topic', async () => {
    const semWebhook = banco.novaLoja();
    // An event type added to the topic for another purpose: not a notification.
    expect(await registrado(TOPICS.atendimento, banco.evento(semWebhook, 'atendimento.transferido'))).toEqual({ naFila: 0, entregas: 0 });
    expect(await registrado(TOPICS.lojas, banco.evento(semWebhook, 'loja.criada'))).toEqual({ naFila: 0, entregas: 0 });
    // A notification's type, on a topic the list does not name for it.
    expect(await registrado(TOPICS.atendimento, banco.evento(semWebhook, 'aplicativo.removido'))).toEqual({ naFila: 0, entregas: 0 });
    const comWebhook = await banco.lojaComWebhook();
    expect(await registrado(TOPICS.atendimento, banco.evento(comWebhook, 'atendimento.transferido'))).toEqual({ naFila: 0, entregas: 0 });

    // The notifications themselves: queued without a webhook, delivered with one.
    expect(await registrado(TOPICS.lojas, banco.evento(semWebhook, 'aplicativo.removido'))).toEqual({ naFila: 1, entregas: 0 });
    expect(await registrado(TOPICS.atendimento, banco.evento(semWebhook, 'atendimento.criado'))).toEqual({ naFila: 1, entregas: 0 });
    expect(await registrado(TOPICS.atendimento, banco.evento(comWebhook, 'atendimento.criado'))).toEqual({ naFila: 0, entregas: 1 });
  });
});

describe('registrarNotificacao in PostgreSQL: the registration flags', () => {
  const banco = bancoDeEntregas(4);
  /** A store whose registration has exactly these keys, as a registration stored before a flag existed has. */
  const { lojaComWebhook: lojaComEventos } = banco;

  async function aplicativoRemovido(idLoja: number) {
    const event = banco.evento(idLoja);
    await banco.dataSource.transaction((manager) => registrarNotificacao(manager, TOPICS.lojas, event));
    const entregas: { status: string }[] = await banco.dataSource.query(`SELECT status FROM entregas WHERE id_evento = $1`, [event.id]);
    const naFila: unknown[] = await banco.dataSource.query(`SELECT 1 FROM fila WHERE id_evento = $1`, [event.id]);
    return { naFila: naFila.length > 0, entregas: entregas.map((entrega) => entrega.status) };
  }

  it("a registration stored without an event's flag gets the event, as the flag's default says", async () => {
    expect(FLAGS_PADRAO.aplicativo).toBe(true);
    const idLoja = await lojaComEventos({ atendimentoCriado: true, atendimentoMensagem: true, atendimentoEncerrado: true });

    expect(await aplicativoRemovido(idLoja)).toEqual({ naFila: false, entregas: ['pendente'] });
    // GET /webhook shows the flag with its default.
    expect((await webhookDaLoja(banco.dataSource.manager, idLoja))?.eventos).toEqual({ atendimentoCriado: true, atendimentoMensagem: true, atendimentoEncerrado: true, aplicativo: true });
  });

  it('a flag stored as false still turns its event off', async () => {
    const idLoja = await lojaComEventos({ atendimentoCriado: true, atendimentoMensagem: true, atendimentoEncerrado: true, aplicativo: false });

    expect(await aplicativoRemovido(idLoja)).toEqual({ naFila: false, entregas: [] });
    expect((await webhookDaLoja(banco.dataSource.manager, idLoja))?.eventos.aplicativo).toBe(false);
  });
});

describe('registrarNotificacao in PostgreSQL: the claim of a delivery due at once, as the consumer makes it', () => {
  const banco = bancoDeEntregas(4);
  const LEASE_MS = 60_000;
  const sucesso = (): ResultadoEnvio => ({ ok: true, dataHora: new Date(), url: 'https://loja.example/hook', cabecalhos: null, resposta: null, statusHttp: 200, duracaoMs: 1, erro: null, traceparent: null });

  /** Records the event in a consumer's transaction with a claim; resolves with what the claim was given to attempt. */
  async function registrarComClaim(event: EventEnvelope, falhar = false): Promise<Claimed[]> {
    const tentadas: Claimed[] = [];
    const claim = { lease: randomUUID(), leaseMs: LEASE_MS, tentar: (entrega: Claimed) => tentadas.push(entrega) };
    await compactTransaction(banco.dataSource, undefined, async (manager) => {
      await registrarNotificacao(manager, TOPICS.lojas, event, claim);
      if (falhar) await writeAtCommit(manager, `SELECT 1 / 0`, []);
    }).catch((error: Error) => {
      if (!falhar) throw error;
    });
    return tentadas;
  }

  const entrega = async (idEvento: string) =>
    (await banco.dataSource.query(`SELECT lease, proxima_em > now() + interval '50 seconds' AS arrendada, proxima_em IS NULL AS esperando FROM entregas WHERE id_evento = $1`, [idEvento]))[0];

  it('leases a delivery due at once to this replica and hands it over once committed; the next event of the store waits its turn', async () => {
    const idLoja = await banco.lojaComWebhook();
    const primeiro = banco.evento(idLoja);
    const [tentada, ...outras] = await registrarComClaim(primeiro);

    expect(outras).toEqual([]);
    expect(tentada).toMatchObject({ idEvento: primeiro.id, idLoja, estado: { status: 'pendente', tentativas: 0, manual: false }, recuperar: false });
    expect(tentada.webhook).toMatchObject({ idLoja, url: `https://loja-${idLoja}.example/hook`, ativo: true });
    expect(JSON.parse(tentada.corpo)).toEqual({ evento: 'aplicativo.removido', data: primeiro.data });
    expect(await entrega(primeiro.id)).toEqual({ lease: tentada.lease, arrendada: true, esperando: false });
    // Leased, so no claim of any replica takes it.
    expect((await banco.entregas.claim(100, 100, new Map())).claimed.filter((outra) => outra.idLoja === idLoja)).toEqual([]);

    const segundo = banco.evento(idLoja);
    expect(await registrarComClaim(segundo)).toEqual([]);
    expect(await entrega(segundo.id)).toEqual({ lease: null, arrendada: null, esperando: true });

    // The attempt is recorded under the consumer's lease, and the store's next first attempt follows.
    const registro = await banco.entregas.concluir([{ entrega: tentada, resultado: sucesso() }], { livre: true, lojasCheias: [] });
    expect(registro.claimed.map((proxima) => proxima.idEvento)).toEqual([segundo.id]);
    expect((await banco.dataSource.query(`SELECT status FROM entregas WHERE id_evento = $1`, [primeiro.id]))[0].status).toBe('entregue');
  });

  it('hands nothing over when the transaction rolls back, and claims nothing for a store without an active webhook', async () => {
    const idLoja = await banco.lojaComWebhook();
    const desfeito = banco.evento(idLoja);
    expect(await registrarComClaim(desfeito, true)).toEqual([]);
    expect(await entrega(desfeito.id)).toBeUndefined();

    await banco.dataSource.query(`UPDATE webhooks SET ativo = false WHERE id_loja = $1`, [idLoja]);
    const inativo = banco.evento(idLoja);
    expect(await registrarComClaim(inativo)).toEqual([]);
    expect(await entrega(inativo.id)).toEqual({ lease: null, arrendada: null, esperando: true });

    const semWebhook = banco.evento(banco.novaLoja());
    expect(await registrarComClaim(semWebhook)).toEqual([]);
    expect(await banco.dataSource.query(`SELECT 1 AS na_fila FROM fila WHERE id_evento = $1`, [semWebhook.id])).toEqual([{ na_fila: 1 }]);
  });
});
