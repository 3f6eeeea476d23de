import { AsyncLocalStorage } from 'node:async_hooks';
import { hash } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { writeAtCommit, type PreparedStatement } from '../compact-transaction';

/** A request that carries an `Idempotency-Key`: its store, its key, and what it asked for. */
export interface IdempotentRequest {
  idLoja: number;
  key: string;
  /** The method, path and body the key was first used with (`fingerprint`). */
  fingerprint: string;
}

/** How long a key's answer is kept, at least: a client retrying within a day gets it back. */
export const KEY_KEPT_HOURS = 24;

/**
 * The header's value: the IETF draft's Structured Field string (`"…"`) or the same characters
 * bare, 1 to 255 visible ASCII characters (a UUID, say) other than `"` and `\`.
 */
export const IDEMPOTENCY_KEY_PATTERN = '^([!#-\\[\\]-~]{1,255}|"[!#-\\[\\]-~]{1,255}")$';
const KEY = new RegExp(IDEMPOTENCY_KEY_PATTERN);

/** The key the header names, without its quotes; undefined when the value is not a key. */
export function parseIdempotencyKey(value: string): string | undefined {
  return KEY.test(value) ? value.replace(/^"(.*)"$/, '$1') : undefined;
}

/** What a request asks for, as a digest: the same key with another method, path or body is another request. */
export function fingerprint(method: string, path: string, body: unknown): string {
  return hash('sha256', JSON.stringify([method, path, body ?? null]), 'base64url');
}

const current = new AsyncLocalStorage<IdempotentRequest>();

/** Runs `work` as the answering of `request`: the command it makes keeps its answer under the key. */
export function answering<T>(request: IdempotentRequest, work: () => Promise<T>): Promise<T> {
  return current.run(request, work);
}

const KEEP_ANSWER: PreparedStatement = {
  name: 'trilha_keep_answer',
  text: `INSERT INTO idempotency_keys (id_loja, key, fingerprint, body) VALUES ($1, $2, $3, $4::jsonb)`,
};

/**
 * Inside a command's transaction: keeps `body` as the answer to the current request's
 * `Idempotency-Key`, with the command's own writes, so the command and its answer commit
 * together or not at all. Without a key it does nothing. Another request that kept an answer
 * under the same key first makes the COMMIT fail (`isKeyTaken`).
 */
export async function keepAnswer(manager: EntityManager, body: unknown): Promise<void> {
  const request = current.getStore();
  if (!request) return;
  await writeAtCommit(manager, KEEP_ANSWER, [request.idLoja, request.key, request.fingerprint, JSON.stringify(body)]);
}

/** The COMMIT failed because a request with the same store and key committed first. */
export function isKeyTaken(error: unknown): boolean {
  const { code, constraint } = error as { code?: string; constraint?: string };
  return code === '23505' && constraint === 'idempotency_keys_pkey';
}
