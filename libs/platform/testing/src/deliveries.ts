import { gateway } from './gateway';

/** One attempt of a delivery, as GET /webhook/entregas lists it (docs/API.md section 7). */
export interface DeliveryAttempt { numero: number; dataHora: string; statusHttp: number | null; erro: string | null }

/** One delivery, as GET /webhook/entregas lists it (docs/API.md section 7). */
export interface Delivery { idEntrega: string; idEvento: string; status: string; tentativas: DeliveryAttempt[] }

/** The store's deliveries log, newest first: its first page, of the API's default size unless `porPagina` is given. */
export async function deliveryLog(store: { token: string }, porPagina?: number): Promise<Delivery[]> {
  const query = porPagina === undefined ? '' : `?porPagina=${porPagina}`;
  return (await gateway()<{ entregas: Delivery[] }>('GET', `/webhook/entregas${query}`, { token: store.token })).body.entregas;
}
