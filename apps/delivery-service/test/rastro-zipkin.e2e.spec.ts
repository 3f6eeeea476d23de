import { createStore, eventually, isVerification, openConversation, registerWebhook, TEST_CUSTOMER, testStack, WebhookReceiver, zipkinTrace, type ZipkinSpan } from '@trilha/testing';

// One notification, followed in Zipkin as an SRE would (docs/TRACES.md): the request through
// the gateway, the atendimento service and its outbox, Kafka, the delivery service and each
// webhook attempt, read back from Zipkin's HTTP API.
const stack = testStack();
const TOPICO = 'atendimento.events.v1';
const receiver = WebhookReceiver.forTestFile(stack);

/** A span and its ancestors in the trace, the root first. */
function cadeiaAte(spans: ZipkinSpan[], ultimo: ZipkinSpan): ZipkinSpan[] {
  const porId = new Map(spans.map((s) => [s.id, s]));
  const cadeia = [ultimo];
  for (let pai = porId.get(ultimo.parentId ?? ''); pai; pai = porId.get(pai.parentId ?? '')) cadeia.unshift(pai);
  return cadeia;
}

/** What identifies a hop: its service, its kind and its (lower-cased) name. */
const salto = (s: ZipkinSpan) => [s.localEndpoint.serviceName, s.kind ?? 'INTERNAL', s.name];

/** The webhook attempts of the trace, oldest first. */
const tentativas = (spans: ZipkinSpan[]) =>
  spans.filter((s) => s.localEndpoint.serviceName === 'delivery-service' && s.kind === 'CLIENT').sort((a, b) => a.timestamp - b.timestamp);

const fim = (s: ZipkinSpan) => s.timestamp + s.duration;
/** How far two processes' span clocks may differ, in µs. */
const RELOGIOS_US = 10_000;
/** How far within one process a child's end may trail its parent's (see the durations below). */
const MESMO_TURNO_US = 2_000;

/** Waits until Zipkin holds the trace's `attempts` webhook attempts (spans arrive a second after they end). */
function rastroCom(traceId: string, attempts: number): Promise<ZipkinSpan[]> {
  return eventually(`${attempts} webhook attempt(s) of trace ${traceId} in Zipkin`, async () => {
    const spans = await zipkinTrace(stack, traceId);
    return tentativas(spans).length >= attempts && spans.some((s) => s.kind === 'PRODUCER') ? spans : undefined;
  });
}

describe('one notification is one trace in Zipkin, from the request to the webhook', () => {
  it('chains gateway, service, command, outbox, Kafka and the webhook attempt, with their conventions and the store on every span', async () => {
    const loja = await createStore();
    const { segredo } = await registerWebhook(loja, receiver.url('/rastreado'));
    const { traceId, callerSpanId: idChamador } = await openConversation(loja);
    await eventually('the notification at the receiver', () => receiver.notifications('/rastreado')[0]);

    const spans = await rastroCom(traceId, 1);
    expect(spans.every((s) => s.traceId === traceId)).toBe(true);
    // The chain from the attempt up: each span the child of the one before, the first a child of the caller's.
    const cadeia = cadeiaAte(spans, tentativas(spans)[0]);
    expect(cadeia.map(salto)).toEqual([
      ['api-gateway', 'SERVER', 'post /v1/atendimentos'],
      ['api-gateway', 'CLIENT', 'post'],
      ['atendimento-service', 'SERVER', expect.stringMatching(/^post \/.*atendimentos/)],
      ['atendimento-service', 'INTERNAL', 'append atendimento.criado'],
      ['atendimento-service', 'PRODUCER', `send ${TOPICO}`],
      ['delivery-service', 'CONSUMER', `process ${TOPICO}`],
      ['delivery-service', 'CLIENT', 'post'],
    ]);
    expect(cadeia[0].parentId).toBe(idChamador);
    const [entrada, encaminhamento, servico, comando, envio, consumo, tentativa] = cadeia;

    // HTTP spans follow HTTP's conventions; the attempt says what the receiver answered.
    expect(entrada.tags).toMatchObject({ 'http.request.method': 'POST', 'http.route': '/v1/atendimentos', 'http.response.status_code': '201' });
    expect(encaminhamento.tags).toMatchObject({ 'http.request.method': 'POST', 'server.address': '127.0.0.1', 'http.response.status_code': '201' });
    expect(encaminhamento.tags['url.full']).toMatch(/\/v1\/atendimentos$/);
    expect(servico.tags).toMatchObject({ 'http.request.method': 'POST', 'http.response.status_code': '201' });
    expect(tentativa.tags).toMatchObject({ 'http.request.method': 'POST', 'http.response.status_code': '200', 'url.full': receiver.url('/rastreado') });
    // Kafka spans follow the messaging conventions, the key being the store; both sides name the same record.
    const mensagem = { 'messaging.system': 'kafka', 'messaging.destination.name': TOPICO, 'messaging.kafka.message.key': String(loja.idLoja) };
    expect(envio.tags).toMatchObject({ ...mensagem, 'messaging.operation.type': 'send' });
    expect(consumo.tags).toMatchObject({ ...mensagem, 'messaging.operation.type': 'process', 'messaging.consumer.group.name': expect.any(String) });
    expect(consumo.tags['messaging.destination.partition.id']).toMatch(/^\d+$/);
    expect(envio.tags).toMatchObject({ 'messaging.destination.partition.id': consumo.tags['messaging.destination.partition.id'], 'messaging.kafka.offset': consumo.tags['messaging.kafka.offset'] });
    expect(envio.tags['messaging.message.id']).toBe(consumo.tags['messaging.message.id']);
    expect(receiver.notifications('/rastreado')[0].headers['webhook-id']).toBe(consumo.tags['messaging.message.id']);

    // Every span names the store; none carries a credential or the notification's content.
    for (const s of spans) expect([...salto(s), s.tags.idLoja]).toEqual([...salto(s), String(loja.idLoja)]);
    const texto = JSON.stringify(spans);
    for (const segredoOuDado of [loja.token, segredo, TEST_CUSTOMER.email, TEST_CUSTOMER.telefone, TEST_CUSTOMER.nome]) expect(texto).not.toContain(segredoOuDado);

    // Durations add up. Within a process a synchronous hop lies within its parent and an
    // asynchronous one starts after it. Across processes the same holds up to the processes'
    // clocks (each span clock is its process's start time plus a monotonic clock, a few ms
    // apart): the service starts handling while the gateway waits, and its command has
    // committed before the gateway has the answer. (The service's server span itself may end
    // after that: it ends when the service has finished with the response.)
    // A span ends when its work's promise settles, in the same turn of the event loop in which
    // its parent's answer may already be flushed: its end may trail by a fraction of a millisecond.
    for (const [pai, filho] of [[entrada, encaminhamento], [servico, comando]]) {
      expect(filho.timestamp).toBeGreaterThanOrEqual(pai.timestamp);
      expect(fim(filho)).toBeLessThanOrEqual(fim(pai) + MESMO_TURNO_US);
    }
    expect(servico.timestamp).toBeGreaterThanOrEqual(encaminhamento.timestamp - RELOGIOS_US);
    expect(fim(comando)).toBeLessThanOrEqual(fim(encaminhamento) + RELOGIOS_US);
    expect(envio.timestamp).toBeGreaterThanOrEqual(comando.timestamp);
    expect(consumo.timestamp).toBeGreaterThanOrEqual(envio.timestamp - RELOGIOS_US);
    expect(tentativa.timestamp).toBeGreaterThanOrEqual(consumo.timestamp);
    expect(tentativa.duration).toBeGreaterThan(0);
    expect(fim(tentativa)).toBeGreaterThan(fim(entrada) - RELOGIOS_US);
  });

  it('keeps every attempt of a notification in its trace: a 500, then the retry that delivers, linked to the first', async () => {
    receiver.on('/500-depois-200', (request, index) => (isVerification(request) || index > 1 ? { status: 200 } : { status: 500 }));
    const loja = await createStore();
    await registerWebhook(loja, receiver.url('/500-depois-200'));
    const { traceId } = await openConversation(loja);
    await eventually('the retry delivered', () => receiver.notifications('/500-depois-200').find((request) => request.answered === 200));

    const spans = await rastroCom(traceId, 2);
    const [primeira, segunda, ...outras] = tentativas(spans);
    expect(outras).toEqual([]);
    // Both attempts are children of the one consumer span that recorded the delivery.
    const consumo = cadeiaAte(spans, primeira).at(-2) as ZipkinSpan;
    expect(salto(consumo)).toEqual(['delivery-service', 'CONSUMER', `process ${TOPICO}`]);
    expect([primeira.parentId, segunda.parentId]).toEqual([consumo.id, consumo.id]);
    expect(primeira.tags).toMatchObject({ 'http.response.status_code': '500', 'error.type': '500', 'otel.status_code': 'ERROR', idLoja: String(loja.idLoja) });
    expect(primeira.tags['trilha.webhook.first_attempt_span_id']).toBeUndefined();
    expect(segunda.tags).toMatchObject({ 'http.response.status_code': '200', 'http.request.resend_count': '1', 'trilha.webhook.first_attempt_span_id': primeira.id, idLoja: String(loja.idLoja) });
    expect(segunda.timestamp).toBeGreaterThanOrEqual(fim(primeira));
  });

  it('drops a trace whole when the caller did not sample it: no span of it anywhere, its context still reaching the store', async () => {
    const loja = await createStore();
    await registerWebhook(loja, receiver.url('/nao-amostrado'));
    const naoAmostrado = await openConversation(loja, false);
    const notificacao = await eventually('the unsampled notification', () => receiver.notifications('/nao-amostrado')[0]);
    expect(String(notificacao.headers.traceparent)).toMatch(new RegExp(`^00-${naoAmostrado.traceId}-[0-9a-f]{16}-00$`));

    // A sampled notification of the same store, made after it, reaches Zipkin: spans of the
    // first, had any been recorded, would have been exported before.
    const amostrado = await openConversation(loja);
    await rastroCom(amostrado.traceId, 1);
    expect(await zipkinTrace(stack, naoAmostrado.traceId)).toEqual([]);
  });
});
