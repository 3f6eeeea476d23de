import { FLAGS_PADRAO } from '@trilha/delivery-domain';
import { webhookDaLoja } from '../shared';
import { bancoDeEntregas } from '../testing/banco-de-entregas.fixture';
import { registrarNotificacao } from './registrar-notificacao';

describe('registrarNotificacao in PostgreSQL: the registration flags', () => {
  const banco = bancoDeEntregas(4);
  /** A store whose registration has exactly these keys, as a registration stored before a flag existed has. */
  const { lojaComWebhook: lojaComEventos } = banco;

  async function aplicativoRemovido(idLoja: number) {
    const event = banco.evento(idLoja);
    await banco.dataSource.transaction((manager) => registrarNotificacao(manager, event));
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
