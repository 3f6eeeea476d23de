import { GoneException, Injectable, UnauthorizedException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { situacaoLinkPortal, tokenAceito, type CapacidadePortal } from '@trilha/lojas-domain';
import { LojaStatusCache } from '../auth/loja-status.cache';
import { hashSegredoPortal, novoSegredoPortal } from '../auth/sessoes-portal.service';

export const LINK_INVALIDO = 'Link do portal inválido; peça um novo link ao sistema da loja.';
export const LINK_USADO = 'Este link do portal já foi usado: cada link abre uma sessão só uma vez. Peça um novo link ao sistema da loja.';
export const LINK_EXPIRADO = 'Este link do portal expirou: ele precisa ser aberto em até 15 minutos. Peça um novo link ao sistema da loja.';

export interface SessaoAberta {
  /** The session's secret: the cookie's value, never stored. */
  segredo: string;
  idLoja: number;
  nomeLoja: string;
  capacidade: CapacidadePortal;
  duracao: number;
  expiraEm: Date;
}

interface LinkRow {
  id_loja: number;
  criado_em: Date;
  expira_em: Date;
  usado_em: Date | null;
}

/**
 * POST /portal/sessoes: a link opens a session once, within its 15 minutes. The link is taken by
 * one UPDATE … WHERE usado_em IS NULL that creates the session in the same statement, so two
 * requests with the same link open one session between them. A link minted before its store was
 * deactivated or had its code rotated opens nothing, as a token issued before would be refused.
 */
@Injectable()
export class AbrirSessaoPortalHandler {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly lojas: LojaStatusCache,
  ) {}

  async execute(link: string): Promise<SessaoAberta> {
    const hash = hashSegredoPortal(link);
    const found = await this.recusarSeInvalido(hash);
    if (!tokenAceito(await this.lojas.get(found.id_loja), found.criado_em.getTime())) throw new UnauthorizedException(LINK_INVALIDO);
    const segredo = novoSegredoPortal();
    const agora = new Date();
    const rows: { id_loja: number; nome: string; capacidade: CapacidadePortal; duracao: number; expira_em: Date }[] = await this.dataSource.query(
      `WITH link AS (
         UPDATE portal_links SET usado_em = $3 WHERE hash = $1 AND usado_em IS NULL AND expira_em > $3
         RETURNING id_loja, capacidade, duracao, criado_em
       ), sessao AS (
         INSERT INTO portal_sessoes (hash, id_loja, capacidade, autorizada_em, criada_em, expira_em)
         SELECT $2, id_loja, capacidade, criado_em, $3, $3::timestamptz + make_interval(secs => duracao) FROM link
         RETURNING id_loja, capacidade, expira_em
       )
       SELECT sessao.id_loja, lojas.nome, sessao.capacidade, link.duracao, sessao.expira_em
       FROM sessao JOIN link USING (id_loja) JOIN lojas USING (id_loja)`,
      [hash, hashSegredoPortal(segredo), agora],
    );
    // Another request took the link between the check and the update.
    if (rows.length === 0) {
      await this.recusarSeInvalido(hash);
      throw new GoneException(LINK_USADO);
    }
    const [row] = rows;
    return { segredo, idLoja: row.id_loja, nomeLoja: row.nome, capacidade: row.capacidade, duracao: row.duracao, expiraEm: row.expira_em };
  }

  /** The link, if it can still be opened: else a 401 (unknown) or a 410 (used, expired) saying what to do. */
  private async recusarSeInvalido(hash: string): Promise<LinkRow> {
    const rows: LinkRow[] = await this.dataSource.query(`SELECT id_loja, criado_em, expira_em, usado_em FROM portal_links WHERE hash = $1`, [hash]);
    if (rows.length === 0) throw new UnauthorizedException(LINK_INVALIDO);
    const situacao = situacaoLinkPortal({ usadoEm: rows[0].usado_em, expiraEm: rows[0].expira_em }, Date.now());
    if (situacao === 'usado') throw new GoneException(LINK_USADO);
    if (situacao === 'expirado') throw new GoneException(LINK_EXPIRADO);
    return rows[0];
  }
}
