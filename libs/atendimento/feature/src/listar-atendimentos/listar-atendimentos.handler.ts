import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { type AtendimentosPaginaResponse, atendimentoResumido, COLUNAS_ATENDIMENTO, type AtendimentoRow } from '../shared';
import type { ListarAtendimentosQuery } from './listar-atendimentos.request';

/** The store's conversations, newest first, a page at a time. */
@Injectable()
export class ListarAtendimentosHandler {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async execute(idLoja: number, filtro: ListarAtendimentosQuery): Promise<AtendimentosPaginaResponse> {
    const { status, pagina, porPagina } = filtro;
    const params: unknown[] = status ? [idLoja, status] : [idLoja];
    const where = status ? 'id_loja = $1 AND status = $2' : 'id_loja = $1';
    const [{ total }] = await this.dataSource.query(`SELECT count(*)::int AS total FROM atendimentos WHERE ${where}`, params);
    const rows = await this.dataSource.query<AtendimentoRow[]>(
      `SELECT ${COLUNAS_ATENDIMENTO} FROM atendimentos a WHERE ${where} ORDER BY data_abertura DESC, id_atendimento LIMIT ${porPagina} OFFSET ${(pagina - 1) * porPagina}`,
      params,
    );
    return { pagina, porPagina, total, totalPaginas: Math.ceil(total / porPagina), atendimentos: rows.map(atendimentoResumido) };
  }
}
