/**
 * The retry schedule (docs/API.md section 7): the intervals between a failed attempt and the
 * next one: at most 5, increasing.
 */
export const AGENDA_PADRAO = '10s,1m,5m,30m,2h';
export const MAX_TENTATIVAS_EXTRAS = 5;

const UNIDADES: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const INTERVALO = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/;

/** `500ms`, `10s`, `5m`, `2h`, `5d` → ms; throws with a readable reason when it is not a duration longer than zero. */
export function lerDuracao(texto: string): number {
  const parte = texto.trim();
  const match = INTERVALO.exec(parte);
  if (!match) throw new Error(`"${parte}" is not an interval like 500ms, 10s, 5m, 2h or 5d`);
  const ms = Math.round(Number(match[1]) * UNIDADES[match[2]]);
  if (ms <= 0) throw new Error(`"${parte}" must be longer than zero`);
  return ms;
}

/** `10s,1m,5m,30m,2h` → intervals in ms; throws with a readable reason when it is not a valid schedule. */
export function lerAgenda(texto: string): number[] {
  const intervalos = texto.split(',').map(lerDuracao);
  if (intervalos.length > MAX_TENTATIVAS_EXTRAS) throw new Error(`at most ${MAX_TENTATIVAS_EXTRAS} intervals (5 further attempts)`);
  if (intervalos.some((ms, index) => index > 0 && ms < intervalos[index - 1])) throw new Error('intervals must not decrease');
  return intervalos;
}

/** ±10 % jitter, so retries of many events that failed together do not arrive together. `aleatorio` ∈ [0, 1). */
export function comJitter(ms: number, aleatorio: number): number {
  return Math.round(ms * (0.9 + 0.2 * aleatorio));
}

/**
 * `Retry-After` as milliseconds from `agora`: delay-seconds or an HTTP date (RFC 9110 10.2.3).
 * Undefined when absent or unreadable; never negative.
 */
export function lerRetryAfter(valor: string | undefined, agora: number): number | undefined {
  if (valor === undefined) return undefined;
  const texto = valor.trim();
  if (/^\d+$/.test(texto)) return Number(texto) * 1000;
  const data = Date.parse(texto);
  if (Number.isNaN(data) || !/[a-z]/i.test(texto)) return undefined;
  return Math.max(0, data - agora);
}
