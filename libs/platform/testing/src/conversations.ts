import { randomBytes } from 'node:crypto';
import { gateway } from './gateway';

/** The customer of every conversation `openConversation` opens. */
export const TEST_CUSTOMER = { nome: 'Maria Silva', telefone: '+5511999990000', email: 'maria@example.com' };

/** A conversation `openConversation` opened, with the trace it was opened in. */
export interface OpenedConversation {
  /** The trace id of the request's `traceparent`. */
  traceId: string;
  /** The span id of the request's `traceparent` (the caller's span, parent of the gateway's). */
  callerSpanId: string;
  /** Exactly the fields of the atendimento.criado it produces (docs/API.md section 7). */
  criado: {
    idAtendimento: string;
    idLoja: number;
    canal: 'chat';
    tipo: 'duvida';
    status: 'aberto';
    dadosCliente: typeof TEST_CUSTOMER;
    dataAbertura: string;
  };
}

/** Opens a chat conversation (POST /atendimentos) for the store in a trace of the test's own, sampled unless told; expects a 201. */
export async function openConversation(store: { token: string }, sampled = true): Promise<OpenedConversation> {
  const traceId = randomBytes(16).toString('hex');
  const callerSpanId = randomBytes(8).toString('hex');
  const response = await gateway()<{ idAtendimento: string; idLoja: number; dataAbertura: string }>('POST', '/atendimentos', {
    token: store.token,
    headers: { traceparent: `00-${traceId}-${callerSpanId}-${sampled ? '01' : '00'}` },
    body: { canal: 'chat', tipo: 'duvida', dadosCliente: TEST_CUSTOMER },
  });
  expect(response.status).toBe(201);
  const { idAtendimento, idLoja, dataAbertura } = response.body;
  return {
    traceId,
    callerSpanId,
    criado: { idAtendimento, idLoja, canal: 'chat', tipo: 'duvida', status: 'aberto', dadosCliente: TEST_CUSTOMER, dataAbertura },
  };
}
