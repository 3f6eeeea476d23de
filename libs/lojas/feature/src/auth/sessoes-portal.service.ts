import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { hash, randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { CapacidadePortal } from '@trilha/lojas-domain';

/** A new secret of a portal link or session: 256 random bits. */
export const novoSegredoPortal = (): string => randomBytes(32).toString('base64url');

/** SHA-256 of a link's or session's secret: the tables keep only this. */
export const hashSegredoPortal = (segredo: string): string => hash('sha256', segredo, 'hex');

/** Longer than any secret this module mints: a longer one is refused unhashed. */
export const MAX_SEGREDO_PORTAL = 128;

export interface SessaoPortal {
  hash: string;
  idLoja: number;
  capacidade: CapacidadePortal;
  /** When the link that opened it was minted: a deactivation or code rotation after it revokes the session. */
  autorizadaEm: Date;
  expiraEm: Date;
}

interface SessaoRow {
  hash: string;
  id_loja: number;
  capacidade: CapacidadePortal;
  autorizada_em: Date;
  expira_em: Date;
}

/**
 * The store portal's sessions, as `portal_sessoes` keeps them. Read on every request (no cache),
 * so ending sessions takes effect at once on every gateway replica.
 */
@Injectable()
export class SessoesPortalService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The session of a cookie's secret, expired or not; none for an unknown or ended one. */
  async ler(segredo: string): Promise<SessaoPortal | undefined> {
    if (segredo.length > MAX_SEGREDO_PORTAL) return undefined;
    const rows: SessaoRow[] = await this.dataSource.query(
      `SELECT hash, id_loja, capacidade, autorizada_em, expira_em FROM portal_sessoes WHERE hash = $1`,
      [hashSegredoPortal(segredo)],
    );
    if (rows.length === 0) return undefined;
    const [row] = rows;
    return { hash: row.hash, idLoja: row.id_loja, capacidade: row.capacidade, autorizadaEm: row.autorizada_em, expiraEm: row.expira_em };
  }

  /** Ends one session. */
  async encerrar(hash: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM portal_sessoes WHERE hash = $1`, [hash]);
  }

  /** Ends every session of a store; how many were still open. */
  async encerrarTodas(idLoja: number): Promise<number> {
    const rows: { abertas: number }[] = await this.dataSource.query(
      `WITH encerradas AS (DELETE FROM portal_sessoes WHERE id_loja = $1 RETURNING expira_em)
       SELECT count(*) FILTER (WHERE expira_em > now())::int AS abertas FROM encerradas`,
      [idLoja],
    );
    return rows[0].abertas;
  }
}
