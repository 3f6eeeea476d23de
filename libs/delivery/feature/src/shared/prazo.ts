/**
 * A time limit: its signal aborts with a TimeoutError after `ms`, as `AbortSignal.timeout`'s
 * does, and `encerrar` stops the clock once the work it limits is over. `AbortSignal.timeout`'s
 * timer runs its course whatever happens and builds a DOMException when it fires: with one per
 * webhook attempt, 1 % of the delivery service's samples at 180 deliveries a second.
 */
export class Prazo {
  private readonly controle = new AbortController();
  private readonly relogio: NodeJS.Timeout;
  readonly signal = this.controle.signal;

  constructor(ms: number) {
    this.relogio = setTimeout(() => this.controle.abort(new DOMException(`sem resposta em ${ms / 1000} s`, 'TimeoutError')), ms);
  }

  encerrar(): void {
    clearTimeout(this.relogio);
  }
}
