import { createHash, randomBytes } from 'node:crypto';
import { MENSAGEM_MAX, TOPICS } from '@trilha/contracts';
import { apiClient, createStore, envelope, eventPublisher, eventually, handledBy, pedidoRef, registerWebhook, testStack, volumeRef, WebhookReceiver } from '@trilha/testing';

// The agent's reply to an order with many volumes and long labels tells more than a message
// may hold: it is cut to fit, so its atendimento.mensagem passes the contract downstream and
// reaches the store like any other message.
const stack = testStack();
const api = apiClient(stack.baseUrl, stack.caFile);
const kafka = eventPublisher(stack);
const receiver = WebhookReceiver.forTestFile(stack);

afterAll(() => kafka.close());

const VOLUMES = 20;
const codePoints = (text: string) => [...text].length;

/** An order of `VOLUMES` volumes, each with a 255-character label (emoji included) and one event, as the tracking service publishes it. */
function pedidoComMuitosVolumes(idLoja: number) {
  const numeroPedido = `GRANDE-${Date.now()}`;
  const ref = pedidoRef(numeroPedido);
  const volumes = Array.from({ length: VOLUMES }, (_, i) => {
    const codigoRastreio = `VOL${i}${randomBytes(4).toString('hex').toUpperCase()}BR`;
    const rotulo = `Caixa ${i + 1} 📦 ${'frágil, manter em pé '.repeat(20)}`.slice(0, 240).trimEnd();
    const dataHora = '2026-03-02T11:30:00-03:00';
    const descricao = `Objeto em trânsito para o centro de distribuição de Recife 🚚 (volume ${i + 1})`;
    return {
      ...volumeRef(ref, codigoRastreio, rotulo),
      hash: createHash('sha1').update(`${ref.idPedido}|${codigoRastreio}`).digest('hex'), dataHora, descricao, sigla: 'TR', visivelClienteFinal: true, origem: 'api', encerraVolume: false,
    };
  });
  const eventos = [
    envelope('pedido.salvo', idLoja, { ...ref, situacao: 'enviado', atualizadoEm: '2026-03-01T09:00:00-03:00' }),
    ...volumes.map((volume) => envelope('rastreio.evento.registrado', idLoja, volume)),
  ];
  return { ...ref, eventos };
}

describe('an agent’s reply longer than a message may be (atendimento.mensagem, MENSAGEM_MAX)', () => {
  it('is cut at a word with the tracking link kept, and both messages of the exchange reach the store’s webhook', async () => {
    const loja = await createStore('Loja de volumes');
    await registerWebhook(loja, receiver.url('/resposta-longa'));
    await handledBy(stack.dataDir, 'atendimento-service', { type: 'loja.criada', idLoja: loja.idLoja });
    const agentes = await api('GET', '/agentes', { token: loja.token });
    const { idAgente } = agentes.body.agentes.find((agente: { nome: string }) => agente.nome === 'Assistente de rastreio');

    const pedido = pedidoComMuitosVolumes(loja.idLoja);
    await kafka.publish(TOPICS.tracking, pedido.eventos);
    await handledBy(stack.dataDir, 'atendimento-service', pedido.eventos.map((evento) => evento.id));

    const aberto = await api('POST', '/atendimentos', { token: loja.token, body: { canal: 'chat', tipo: 'rastreio', dadosCliente: { nome: 'Maria Silva' } } });
    expect(aberto.status).toBe(201);
    const pergunta = `Onde estão os volumes do pedido ${pedido.numeroPedido}? 🙏`;
    const conversa = await api('POST', `/agentes/${idAgente}/conversar`, { token: loja.token, body: { mensagem: pergunta, idAtendimento: aberto.body.idAtendimento } });
    expect(conversa.status).toBe(200);
    const { resposta } = conversa.body as { resposta: string };
    expect(conversa.body.intencao).toBe('rastreio');
    expect(codePoints(resposta)).toBeLessThanOrEqual(MENSAGEM_MAX);
    expect(codePoints(resposta)).toBeGreaterThan(MENSAGEM_MAX - 300);
    expect(resposta.startsWith(`Pedido ${pedido.numeroPedido}: volume Caixa 1 📦 frágil`)).toBe(true);
    expect(resposta.endsWith(`… Acompanhe em ${pedido.linkRastreio}`)).toBe(true);
    // A word before the ending, whole; no half of a surrogate pair anywhere.
    expect(resposta).toMatch(/[\p{L}\p{N})📦🚚]… Acompanhe em /u);
    expect(resposta).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);

    const mensagens = await eventually('both atendimento.mensagem notifications at the webhook', () => {
      const recebidas = receiver.notifications('/resposta-longa').map((request) => JSON.parse(request.body) as { evento: string; data: { direcao: string; mensagem: string } });
      const doAtendimento = recebidas.filter((notificacao) => notificacao.evento === 'atendimento.mensagem');
      return doAtendimento.length >= 2 ? doAtendimento : undefined;
    });
    expect(mensagens.map(({ data }) => [data.direcao, data.mensagem])).toEqual([
      ['entrada', pergunta],
      ['saida', resposta],
    ]);
  });
});
