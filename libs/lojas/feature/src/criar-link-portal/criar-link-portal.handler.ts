import { Inject, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { CAPACIDADE_PORTAL_PADRAO, DURACAO_SESSAO_PORTAL, VALIDADE_LINK_PORTAL_MS } from '@trilha/lojas-domain';
import { hashSegredoPortal, novoSegredoPortal } from '../auth/sessoes-portal.service';
import { LOJAS_OPTIONS, type LojasOptions } from '../lojas.options';
import type { LinkPortalResponse } from '../portal.response';
import type { CriarLinkPortalRequest } from './criar-link-portal.request';

/**
 * POST /portal/links (the store's token) and its operator twin: mints a single-use link to the
 * store's portal. Only the secret's hash is kept; the secret travels in the URL's fragment, which
 * browsers never send, so it reaches no access log.
 */
@Injectable()
export class CriarLinkPortalHandler {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(LOJAS_OPTIONS) private readonly options: LojasOptions,
  ) {}

  async execute(idLoja: number, request: CriarLinkPortalRequest): Promise<LinkPortalResponse> {
    const segredo = novoSegredoPortal();
    const capacidade = request.capacidade ?? CAPACIDADE_PORTAL_PADRAO;
    const duracao = request.duracao ?? DURACAO_SESSAO_PORTAL.padrao;
    const criadoEm = new Date();
    const expiraEm = new Date(criadoEm.getTime() + VALIDADE_LINK_PORTAL_MS);
    const rows: unknown[] = await this.dataSource.query(
      `INSERT INTO portal_links (hash, id_loja, capacidade, duracao, criado_em, expira_em)
       SELECT $1, id_loja, $3, $4, $5, $6 FROM lojas WHERE id_loja = $2
       RETURNING id_loja`,
      [hashSegredoPortal(segredo), idLoja, capacidade, duracao, criadoEm, expiraEm],
    );
    if (rows.length === 0) throw new NotFoundException('Loja não encontrada.');
    return { url: `${this.options.publicBaseUrl}/portal/#${segredo}`, expiraEm: expiraEm.toISOString(), capacidade, duracao };
  }
}
