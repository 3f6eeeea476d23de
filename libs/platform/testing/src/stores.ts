import { gateway } from './gateway';
import { clientAddress } from './https-client';
import { eventually, PATIENCE_MS } from './service-logs';
import { testStack } from './stack';

/** A store created through the operator API (docs/API.md section 1) and its bearer token. */
export interface TestStore {
  idLoja: number;
  nome: string;
  codigo: string;
  ativa: boolean;
  criadaEm: string;
  token: string;
}

/** What POST /webhook/novo answered (docs/API.md section 7). */
export interface WebhookRegistration {
  idWebhook: string;
  url: string;
  eventos: { atendimentoCriado: boolean; atendimentoMensagem: boolean; atendimentoEncerrado: boolean; aplicativo: boolean };
  segredo: string;
  criadoEm: string;
}

/** What GET /fila/lista answers (docs/API.md section 8). */
export interface Queue {
  total: number;
  eventos: { idDocumento: string; evento: string; data: Record<string, unknown>; dataCriacao: string; entregaFalhou: boolean }[];
}

/** Creates a store with the operator key and exchanges its account code for a token. */
export async function createStore(nome = 'Loja de teste'): Promise<TestStore> {
  const created = await gateway()<Omit<TestStore, 'token'>>('POST', '/admin/lojas', { headers: { 'x-admin-key': testStack().adminApiKey }, body: { nome } });
  expect(created.status).toBe(201);
  const auth = await gateway()<{ token: string }>('GET', `/autenticacao/${created.body.codigo}`, { headers: clientAddress() });
  expect(auth.status).toBe(200);
  return { ...created.body, token: auth.body.token };
}

/** Registers the store's webhook (which the URL's receiver must verify with a 200). */
export async function registerWebhook(store: { token: string }, url: string, flags: Partial<WebhookRegistration['eventos']> = {}): Promise<WebhookRegistration> {
  const response = await gateway()<WebhookRegistration>('POST', '/webhook/novo', { token: store.token, body: { url, ...flags } });
  expect(response.status).toBe(201);
  return response.body;
}

/** The store's queue once it holds `total` items (every one of them, oldest first). */
export function queueWith(store: { token: string }, total: number, timeoutMs = PATIENCE_MS): Promise<Queue> {
  return eventually(`${total} items in the queue`, async () => {
    const response = await gateway()<Queue>('GET', '/fila/lista?limite=500', { token: store.token });
    return response.body.total === total ? response.body : undefined;
  }, timeoutMs, 100);
}
