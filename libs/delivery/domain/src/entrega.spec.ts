import { lerAgenda } from './agenda';
import { decidirAposTentativa, type EstadoEntrega } from './entrega';

const agenda = lerAgenda('10s,1m,5m,30m,2h');
const agora = Date.parse('2026-03-01T12:00:00Z');
const pendente = (tentativas: number): EstadoEntrega => ({ status: 'pendente', tentativas, manual: false });

describe('after an attempt', () => {
  it('delivers on success', () => {
    expect(decidirAposTentativa(pendente(0), { ok: true }, agenda, agora, 0.5)).toEqual({ status: 'entregue', tentativas: 1, proximaEm: null, paraFila: false });
  });

  it('retries on the schedule, with jitter', () => {
    const intervals = [0, 1, 2, 3, 4].map((feitas) => decidirAposTentativa(pendente(feitas), { ok: false }, agenda, agora, 0.5).proximaEm! - agora);
    expect(intervals).toEqual(agenda);
    expect(decidirAposTentativa(pendente(0), { ok: false }, agenda, agora, 0).proximaEm! - agora).toBe(9_000);
    expect(decidirAposTentativa(pendente(0), { ok: false }, agenda, agora, 0.99999).proximaEm! - agora).toBe(11_000);
  });

  it('queues the event after the 6th failure', () => {
    expect(decidirAposTentativa(pendente(5), { ok: false }, agenda, agora, 0.5)).toEqual({ status: 'falhou', tentativas: 6, proximaEm: null, paraFila: true });
    expect(decidirAposTentativa(pendente(5), { ok: true }, agenda, agora, 0.5)).toMatchObject({ status: 'entregue', tentativas: 6 });
  });

  it('ends the delivery at once on 410 Gone, queueing the event', () => {
    expect(decidirAposTentativa(pendente(0), { ok: false, statusHttp: 410 }, agenda, agora, 0.5)).toEqual({ status: 'falhou', tentativas: 1, proximaEm: null, paraFila: true });
    expect(decidirAposTentativa(pendente(2), { ok: false, statusHttp: 404 }, agenda, agora, 0.5)).toMatchObject({ status: 'pendente', tentativas: 3 });
  });

  it('honours Retry-After within the largest interval of the schedule', () => {
    expect(decidirAposTentativa(pendente(0), { ok: false, retryAfterMs: 45_000 }, agenda, agora, 0.5).proximaEm! - agora).toBe(45_000);
    expect(decidirAposTentativa(pendente(1), { ok: false, retryAfterMs: 86_400_000 }, agenda, agora, 0.5).proximaEm! - agora).toBe(7_200_000);
  });

  it('makes a manual resend one attempt outside the schedule', () => {
    const falhou: EstadoEntrega = { status: 'falhou', tentativas: 6, manual: true };
    expect(decidirAposTentativa(falhou, { ok: true }, agenda, agora, 0.5)).toEqual({ status: 'entregue', tentativas: 6, proximaEm: null, paraFila: false });
    expect(decidirAposTentativa(falhou, { ok: false }, agenda, agora, 0.5)).toEqual({ status: 'falhou', tentativas: 6, proximaEm: null, paraFila: false });
    const entregue: EstadoEntrega = { status: 'entregue', tentativas: 1, manual: true };
    expect(decidirAposTentativa(entregue, { ok: false }, agenda, agora, 0.5)).toMatchObject({ status: 'entregue', paraFila: false });
  });
});
