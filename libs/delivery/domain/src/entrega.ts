import { comJitter } from './agenda';

export const STATUS_ENTREGA = ['pendente', 'entregue', 'falhou'] as const;
export type StatusEntrega = (typeof STATUS_ENTREGA)[number];

/** What an attempt decides from: the delivery as it was when the attempt was claimed. */
export interface EstadoEntrega {
  status: StatusEntrega;
  /** Attempts of the schedule made so far (the first one and the retries), 0–6. */
  tentativas: number;
  /** A resend asked through the API (POST …/reenviar) of a delivery that had finished. */
  manual: boolean;
}

export type ResultadoTentativa = { ok: true } | { ok: false; statusHttp?: number | null; retryAfterMs?: number };

/**
 * `410 Gone`: the receiver says the URL is gone for good (Standard Webhooks recommends that the
 * sender stops): no further attempt to it, and the webhook is deactivated.
 */
export const STATUS_GONE = 410;

export const foiGone = (resultado: ResultadoTentativa): boolean => !resultado.ok && resultado.statusHttp === STATUS_GONE;

export interface Decisao {
  status: StatusEntrega;
  tentativas: number;
  /** When the next attempt is due (epoch ms); null when no attempt is left to make. */
  proximaEm: number | null;
  /** The event goes to the store's queue with `entregaFalhou: true`. */
  paraFila: boolean;
}

/**
 * After an attempt (docs/API.md section 7): a 200 delivers; otherwise the next interval of the
 * schedule with ±10 % jitter (or the receiver's `Retry-After` on 429/503, capped at the
 * schedule's largest interval), and after the last one the event goes to the queue.
 * A `410 Gone` ends the delivery at once: the event goes to the queue.
 * A manual resend of a finished delivery is one attempt outside the schedule: it can deliver,
 * but a failure leaves the delivery as it was (its event is already in the queue, or delivered).
 */
export function decidirAposTentativa(estado: EstadoEntrega, resultado: ResultadoTentativa, agendaMs: number[], agora: number, aleatorio: number): Decisao {
  if (estado.manual) {
    return { status: resultado.ok ? 'entregue' : estado.status, tentativas: estado.tentativas, proximaEm: null, paraFila: false };
  }
  const tentativas = estado.tentativas + 1;
  if (resultado.ok) return { status: 'entregue', tentativas, proximaEm: null, paraFila: false };
  if (foiGone(resultado) || tentativas > agendaMs.length) return { status: 'falhou', tentativas, proximaEm: null, paraFila: true };
  const maior = agendaMs[agendaMs.length - 1];
  const espera = resultado.retryAfterMs !== undefined ? Math.min(resultado.retryAfterMs, maior) : comJitter(agendaMs[tentativas - 1], aleatorio);
  return { status: 'pendente', tentativas, proximaEm: agora + espera, paraFila: false };
}
