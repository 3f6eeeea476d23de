import { createHmac, randomBytes } from 'node:crypto';

const PREFIXO = 'whsec_';

/** A new signing secret: `whsec_` and 32 random bytes in base64 (Standard Webhooks). */
export function gerarSegredo(): string {
  return `${PREFIXO}${randomBytes(32).toString('base64')}`;
}

/**
 * `webhook-signature` of docs/API.md section 7 (Standard Webhooks): `v1,` and the base64
 * HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>`, keyed with the base64-decoded part
 * of the secret after `whsec_`.
 */
export function assinar(segredo: string, idWebhook: string, timestampSegundos: number, corpo: string): string {
  const chave = Buffer.from(segredo.startsWith(PREFIXO) ? segredo.slice(PREFIXO.length) : segredo, 'base64');
  const hmac = createHmac('sha256', chave).update(`${idWebhook}.${timestampSegundos}.${corpo}`).digest('base64');
  return `v1,${hmac}`;
}
