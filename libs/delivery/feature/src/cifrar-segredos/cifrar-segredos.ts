import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { Chaveiro } from '@trilha/delivery-domain';
import { DELIVERY_OPTIONS, type DeliveryOptions } from '../shared';

/** Webhooks re-encrypted per statement. */
const LOTE = 500;

/** Which stored secrets to (re-)encrypt under the keyring's first key. */
export type Alvo =
  /** Those stored in clear (before encryption at rest). */
  | 'em-claro'
  /** Every one not under the first key: after a key rotation. */
  | 'fora-da-chave-atual';

/**
 * Stops with an error naming WEBHOOK_SECRET_KEYS when a stored secret is encrypted under a key the
 * ring lacks (dropped too early, or a replica started with another ring): such a webhook could not
 * be signed for.
 */
export async function verificarChaves(dataSource: Pick<DataSource, 'query'>, chaveiro: Chaveiro): Promise<void> {
  const ids: { id: string; webhooks: number }[] = await dataSource.query(
    `SELECT split_part(s, ':', 2) AS id, count(DISTINCT id_loja)::int AS webhooks
     FROM webhooks CROSS JOIN LATERAL (VALUES (segredo), (segredo_anterior)) v(s)
     WHERE starts_with(s, 'v1:') GROUP BY 1`,
  );
  const ausentes = ids.filter(({ id }) => !chaveiro.tem(id));
  if (ausentes.length > 0) {
    const quais = ausentes.map(({ id, webhooks }) => `"${id}" (${webhooks} webhook(s))`).join(', ');
    throw new Error(`WEBHOOK_SECRET_KEYS lacks the key(s) ${quais} that webhook secrets are encrypted with: add them back, then run main.js reencrypt-webhook-secrets before dropping them`);
  }
}

/**
 * Encrypts the chosen stored secrets (the current one and the previous one of a rotation) under
 * the keyring's first key, LOTE webhooks per statement; `progresso` gets a line after each. A row
 * changed meanwhile (registered again, rotated) is left to its writer, which encrypted it. Running
 * it again changes nothing. Returns how many webhooks it re-encrypted.
 */
export async function cifrarSegredos(dataSource: Pick<DataSource, 'query'>, chaveiro: Chaveiro, alvo: Alvo, progresso: (linha: string) => void): Promise<number> {
  await verificarChaves(dataSource, chaveiro);
  // A value under the prefix needs nothing: any encrypted value for 'em-claro', the first key's for the rest.
  const prefixo = alvo === 'em-claro' ? 'v1:' : `v1:${chaveiro.idAtual}:`;
  const pendentes = `(NOT starts_with(segredo, $1) OR NOT starts_with(segredo_anterior, $1))`;
  const [{ total }]: { total: number }[] = await dataSource.query(`SELECT count(*)::int AS total FROM webhooks WHERE ${pendentes}`, [prefixo]);
  let feitos = 0;
  let depoisDe = -1;
  for (;;) {
    const linhas: { id_loja: number; segredo: string; segredo_anterior: string | null }[] = await dataSource.query(
      `SELECT id_loja, segredo, segredo_anterior FROM webhooks WHERE id_loja > $2 AND ${pendentes} ORDER BY id_loja LIMIT ${LOTE}`,
      [prefixo, depoisDe],
    );
    if (linhas.length === 0) break;
    depoisDe = linhas[linhas.length - 1].id_loja;
    const cifrar = (guardado: string) => chaveiro.cifrar(chaveiro.decifrar(guardado));
    const [, alteradas]: [unknown, number] = await dataSource.query(
      `UPDATE webhooks w SET segredo = n.segredo, segredo_anterior = n.segredo_anterior
       FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::text[]) AS n(id_loja, antigo, antigo_anterior, segredo, segredo_anterior)
       WHERE w.id_loja = n.id_loja AND w.segredo = n.antigo AND w.segredo_anterior IS NOT DISTINCT FROM n.antigo_anterior`,
      [
        linhas.map((linha) => linha.id_loja),
        linhas.map((linha) => linha.segredo),
        linhas.map((linha) => linha.segredo_anterior),
        linhas.map((linha) => cifrar(linha.segredo)),
        linhas.map((linha) => (linha.segredo_anterior === null ? null : cifrar(linha.segredo_anterior))),
      ],
    );
    feitos += alteradas;
    progresso(`re-encrypted ${feitos} of ${total} webhook secret(s) under key "${chaveiro.idAtual}"`);
  }
  return feitos;
}

/**
 * At start-up, before the service is ready: refuses a keyring that lacks a key the stored
 * secrets need, and encrypts the secrets still stored in clear, so that an upgrade leaves none
 * without an operator's step. Re-encrypting under a new key is `main.js reencrypt-webhook-secrets`.
 */
@Injectable()
export class CifrarSegredosAoIniciar implements OnApplicationBootstrap {
  private readonly logger = new Logger(CifrarSegredosAoIniciar.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(DELIVERY_OPTIONS) private readonly options: DeliveryOptions,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const cifrados = await cifrarSegredos(this.dataSource, this.options.chaveiro, 'em-claro', () => undefined);
    if (cifrados > 0) this.logger.log(`encrypted ${cifrados} webhook secret(s) stored in clear under key "${this.options.chaveiro.idAtual}"`);
  }
}
