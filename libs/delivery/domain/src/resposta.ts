/** What the deliveries log keeps of a receiver's answer: its first 2 KB (docs/API.md section 7). */
export const MAX_TRECHO_RESPOSTA = 2048;

/**
 * The first MAX_TRECHO_RESPOSTA bytes of a receiver's answer as text: UTF-8, a character the cut
 * splits left out, invalid bytes as U+FFFD, and U+0000 as U+FFFD too (PostgreSQL's text holds
 * no NUL, and one would fail the record of the whole batch of attempts).
 */
export function trechoDaResposta(bytes: Uint8Array): string {
  // In stream mode the decoder holds back an incomplete character at the end instead of replacing it.
  return new TextDecoder('utf-8').decode(bytes.subarray(0, MAX_TRECHO_RESPOSTA), { stream: true }).replace(/\u0000/g, '\uFFFD');
}
