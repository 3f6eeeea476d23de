import { createStore, eventually, openConversation, pidOnPort, registerWebhook, testStack, WebhookReceiver, zipkinTrace } from '@trilha/testing';

// The trace backend is an observer: while it does not answer, requests and notifications go on
// as before, and once it answers again new traces reach it. Zipkin is paused for real (SIGSTOP),
// so the services' span exports hang on it, as on a collector that stopped reading.
const stack = testStack();

describe('Zipkin not answering', () => {
  it('delays no request and no notification, and the traces made after it answers again reach it', async () => {
    const receiver = await WebhookReceiver.start(stack);
    const zipkin = pidOnPort(Number(new URL(stack.zipkinUrl).port));
    try {
      const loja = await createStore('Loja sem Zipkin');
      await registerWebhook(loja, receiver.url('/sem-zipkin'));
      process.kill(zipkin, 'SIGSTOP');
      try {
        // Several, so that the services' span batches fill and are sent to Zipkin meanwhile.
        for (let n = 1; n <= 5; n += 1) {
          const antes = Date.now();
          await openConversation(loja);
          expect(Date.now() - antes).toBeLessThan(5_000);
          await eventually(`notification ${n} at the receiver`, () => receiver.notifications('/sem-zipkin').length >= n || undefined);
        }
      } finally {
        process.kill(zipkin, 'SIGCONT');
      }

      const { traceId: depois } = await openConversation(loja);
      await eventually('the notification made after Zipkin answers again', () => receiver.notifications('/sem-zipkin').length >= 6 || undefined);
      await eventually(`the webhook attempt of trace ${depois} in Zipkin`, async () =>
        (await zipkinTrace(stack, depois)).some((span) => span.localEndpoint.serviceName === 'delivery-service' && span.kind === 'CLIENT') || undefined,
      );
    } finally {
      await receiver.close();
    }
  });
});
