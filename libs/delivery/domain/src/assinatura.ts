import { createHmac, createSecretKey, randomBytes } from 'node:crypto';

const PREFIXO = 'whsec_';

/** A new signing secret: `whsec_` and 32 random bytes in base64 (Standard Webhooks). */
export function gerarSegredo(): string {
  return `${PREFIXO}${randomBytes(32).toString('base64')}`;
}

/**
 * One signature of docs/API.md section 7 (Standard Webhooks): `v1,` and the base64
 * HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>`, keyed with the base64-decoded part
 * of the secret after `whsec_`.
 */
export function assinar(segredo: string, idWebhook: string, timestampSegundos: number, corpo: string): string {
  // A KeyObject, not a Buffer: Node.js 24 accepts a Buffer as a key several times more slowly than it signs.
  const chave = createSecretKey(segredo.startsWith(PREFIXO) ? segredo.slice(PREFIXO.length) : segredo, 'base64');
  const hmac = createHmac('sha256', chave).update(`${idWebhook}.${timestampSegundos}.${corpo}`).digest('base64');
  return `v1,${hmac}`;
}

/** A webhook's secrets: the current one and, after a rotation, the one it replaced until the overlap ends. */
export interface Segredos {
  segredo: string;
  segredoAnterior: string | null;
  /** The end of the rotation's overlap (epoch ms); after it only `segredo` signs. */
  segredoAnteriorAte: number | null;
}

/** The secrets that sign at `agora`: the current one first, then the previous one during the overlap. */
export function segredosVigentes(segredos: Segredos, agora: number): string[] {
  const { segredo, segredoAnterior, segredoAnteriorAte } = segredos;
  return segredoAnterior !== null && segredoAnteriorAte !== null && agora < segredoAnteriorAte ? [segredo, segredoAnterior] : [segredo];
}

/**
 * `webhook-signature` with one signature per secret, space-separated as Standard Webhooks
 * allows, so a receiver that still has the previous secret verifies during a rotation.
 */
export function assinarComTodos(segredos: string[], idWebhook: string, timestampSegundos: number, corpo: string): string {
  return segredos.map((segredo) => assinar(segredo, idWebhook, timestampSegundos, corpo)).join(' ');
}
