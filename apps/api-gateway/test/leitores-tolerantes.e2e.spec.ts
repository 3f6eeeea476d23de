import { createHash, randomBytes } from 'node:crypto';
import { schemaVersionWritten, TOPIC_CONTRACTS, TOPICS, type EventEnvelope, type TopicName } from '@trilha/contracts';
import {
  apiClient,
  clientAddress,
  createStore,
  envelope,
  eventPublisher,
  eventually,
  handledBy,
  metricValue,
  pedidoRef,
  queueWith,
  testStack,
  volumeRef,
  type TestStore,
} from '@trilha/testing';

// Tolerant readers (libs/contracts, parseEventMessage): every consumer of every topic
// (`grep -rn "@EventPattern" libs`) handles an event carrying fields it does not know, in the
// envelope and in the payload — a producer deployed ahead of it — and an event of every
// schemaVersion its contract lists, and passes none of the unknown fields on.
//
//   lojas.events.v1        api-gateway (LojasMessageController: tokens), delivery-service
//                          (lojas-conhecidas), atendimento-service (assistente-de-rastreio)
//   tracking.events.v1     atendimento-service (rastreio-pedidos: the agents' view)
//   atendimento.events.v1  delivery-service (registrar-notificacao: webhook or queue)
const stack = testStack();
const api = apiClient(stack.baseUrl, stack.caFile);
const kafka = eventPublisher(stack);

afterAll(() => kafka.close());

/**
 * The messages every consumer of `type` must handle: one of the newest version with a field it
 * does not know in the envelope and one in the payload, then one of every version its contract
 * lists.
 */
function variantes(topic: TopicName, type: string, idLoja: number, data: object): EventEnvelope[] {
  const contract = TOPIC_CONTRACTS[topic];
  const doFuturo = {
    ...envelope(type, idLoja, { ...data, campoDoFuturo: { origem: 'um produtor mais novo', prioridade: 3 } }),
    schemaVersion: schemaVersionWritten(contract, type),
    particaoPreferida: 7,
  };
  return [doFuturo, ...contract[type].schemaVersions.map((schemaVersion) => ({ ...envelope(type, idLoja, data), schemaVersion }))];
}

const ids = (eventos: EventEnvelope[]) => eventos.map((evento) => evento.id);

describe('lojas.events.v1, read by the gateway, the delivery service and the atendimento service', () => {
  let loja: TestStore;
  beforeAll(async () => {
    loja = await createStore('Loja tolerante');
  });

  it('loja.criada: the delivery service’s view of stores and the store’s built-in agent', async () => {
    const criadas = variantes(TOPICS.lojas, 'loja.criada', loja.idLoja, { idLoja: loja.idLoja, nome: loja.nome, criadaEm: loja.criadaEm });
    await kafka.publish(TOPICS.lojas, criadas);
    await handledBy(stack.dataDir, 'delivery-service', ids(criadas));
    await handledBy(stack.dataDir, 'atendimento-service', ids(criadas));
    const agentes = await api('GET', '/agentes', { token: loja.token });
    expect(agentes.body.agentes.map((agente: { nome: string }) => agente.nome)).toEqual(['Assistente de rastreio']);
    // The gateway reads them too: the store stays active for its tokens.
    expect((await api('GET', '/loja', { token: loja.token })).status).toBe(200);
  });

  it('loja.desativada and loja.ativada: the gateway refuses and accepts the store’s token, the delivery service follows', async () => {
    const desativadas = variantes(TOPICS.lojas, 'loja.desativada', loja.idLoja, { idLoja: loja.idLoja, dataDesativacao: loja.criadaEm });
    const ativadas = variantes(TOPICS.lojas, 'loja.ativada', loja.idLoja, { idLoja: loja.idLoja, dataAtivacao: new Date().toISOString() });
    const status = async () => (await api('GET', '/loja', { token: loja.token })).status;
    for (const [index, desativada] of desativadas.entries()) {
      await kafka.publish(TOPICS.lojas, [desativada]);
      await eventually(`the gateway to refuse the token after loja.desativada (variant ${index})`, async () => (await status()) === 401);
      // Deactivated at the store's creation, before the token was issued: activating takes the token back.
      await kafka.publish(TOPICS.lojas, [ativadas[index]]);
      await eventually(`the gateway to accept the token after loja.ativada (variant ${index})`, async () => (await status()) === 200);
    }
    await handledBy(stack.dataDir, 'delivery-service', ids([...desativadas, ...ativadas]));
  });

  it('loja.codigo.rotacionado: the gateway refuses the tokens issued before it, the delivery and atendimento services pass it over', async () => {
    const rotacionada = await createStore('Loja rotação tolerante');
    const status = async (token: string) => (await api('GET', '/loja', { token })).status;
    expect(await status(rotacionada.token)).toBe(200);
    const passadas = (service: string) =>
      metricValue(stack.ports.ops[service], `trilha_messages_passed_over_total{topic="${TOPICS.lojas}",type="loja.codigo.rotacionado"}`);
    const antes = { delivery: await passadas('delivery-service'), atendimento: await passadas('atendimento-service') };
    const rotacoes = variantes(TOPICS.lojas, 'loja.codigo.rotacionado', rotacionada.idLoja, { idLoja: rotacionada.idLoja, dataRotacao: new Date().toISOString() });
    await kafka.publish(TOPICS.lojas, rotacoes);
    await eventually('the gateway to refuse the token issued before loja.codigo.rotacionado', async () => (await status(rotacionada.token)) === 401 || undefined);
    // The store stays active: a token issued after the rotation works (the read model, which only the gateway's command changes, still holds the code).
    const fresh = await api('GET', `/autenticacao/${rotacionada.codigo}`, { headers: clientAddress() });
    expect(await status(fresh.body.token)).toBe(200);
    await eventually('the delivery and atendimento services to pass every variant over', async () =>
      ((await passadas('delivery-service')) === antes.delivery + rotacoes.length && (await passadas('atendimento-service')) === antes.atendimento + rotacoes.length) || undefined);
  });

  it('aplicativo.removido: the delivery service queues it for a store without a webhook, without the unknown fields', async () => {
    const semWebhook = await createStore('Loja sem webhook');
    const data = { idLoja: semWebhook.idLoja, dataRemocao: new Date().toISOString() };
    const removidos = variantes(TOPICS.lojas, 'aplicativo.removido', semWebhook.idLoja, data);
    await kafka.publish(TOPICS.lojas, removidos);
    await handledBy(stack.dataDir, 'delivery-service', ids(removidos));
    const fila = await queueWith(semWebhook, removidos.length);
    expect(fila.eventos.map(({ evento, data: dados }) => ({ evento, data: dados }))).toEqual(removidos.map(() => ({ evento: 'aplicativo.removido', data })));
  });
});

describe('tracking.events.v1, read by the atendimento service for its agents', () => {
  it('pedido.salvo, rastreio.evento.registrado and rastreio.evento.corrigido reach the agent’s answer', async () => {
    const loja = await createStore('Loja rastreio tolerante');
    const numeroPedido = `TOL-${Date.now()}`;
    const ref = pedidoRef(numeroPedido);
    const volume = volumeRef(ref, 'TOL1BR');
    const evento = { ...volume, hash: createHash('sha1').update(numeroPedido).digest('hex'), dataHora: '2026-03-02T11:30:00-03:00', descricao: 'Objeto postado', sigla: 'PO', visivelClienteFinal: true };
    const eventos = [
      ...variantes(TOPICS.tracking, 'pedido.salvo', loja.idLoja, { ...ref, situacao: 'enviado', atualizadoEm: '2026-03-01T09:00:00-03:00' }),
      ...variantes(TOPICS.tracking, 'rastreio.evento.registrado', loja.idLoja, { ...evento, origem: 'api', encerraVolume: false }),
      ...variantes(TOPICS.tracking, 'rastreio.evento.corrigido', loja.idLoja, { ...evento, descricao: 'Objeto em trânsito para Natal' }),
    ];
    await kafka.publish(TOPICS.tracking, eventos);
    await handledBy(stack.dataDir, 'atendimento-service', ids(eventos));

    await handledBy(stack.dataDir, 'atendimento-service', { type: 'loja.criada', idLoja: loja.idLoja });
    const agentes = await api('GET', '/agentes', { token: loja.token });
    const { idAgente } = agentes.body.agentes[0];
    const resposta = await api('POST', `/agentes/${idAgente}/conversar`, { token: loja.token, body: { mensagem: `Onde está o pedido ${numeroPedido}?` } });
    expect(resposta.body.resposta).toBe(`Pedido ${numeroPedido}: Objeto em trânsito para Natal (02/03/2026 às 11:30). Acompanhe em ${ref.linkRastreio}`);
  });
});

describe('atendimento.events.v1, read by the delivery service', () => {
  it('atendimento.criado, atendimento.mensagem and atendimento.encerrado are queued for a store without a webhook, without the unknown fields', async () => {
    const loja = await createStore('Loja notificada tolerante');
    const comum = { idAtendimento: `at-${randomBytes(6).toString('hex')}`, idLoja: loja.idLoja, canal: 'chat' };
    const agora = new Date().toISOString();
    const dados = {
      'atendimento.criado': { ...comum, tipo: 'duvida', status: 'aberto', dadosCliente: { nome: 'Maria Silva', telefone: null, email: null }, dataAbertura: agora },
      'atendimento.mensagem': { ...comum, direcao: 'entrada', remetente: 'cliente', mensagem: 'Olá 👋', dataHora: agora },
      'atendimento.encerrado': { ...comum, status: 'encerrado', dataEncerramento: agora, resumo: 'Resolvido.' },
    };
    const eventos = Object.entries(dados).flatMap(([type, data]) => variantes(TOPICS.atendimento, type, loja.idLoja, data));
    await kafka.publish(TOPICS.atendimento, eventos);
    await handledBy(stack.dataDir, 'delivery-service', ids(eventos));
    const fila = await queueWith(loja, eventos.length);
    expect(fila.eventos.map(({ evento, data }) => ({ evento, data }))).toEqual(
      eventos.map((evento) => ({ evento: evento.type, data: dados[evento.type as keyof typeof dados] })),
    );
  });
});
