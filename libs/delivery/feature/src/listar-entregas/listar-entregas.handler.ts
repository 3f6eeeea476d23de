import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { InvalidInputException } from '@trilha/http';
import { cursorTexto, lerCursor } from './cursor';
import type { EntregasResponse } from './entrega.response';
import { COLUNAS_ENTREGA, entregasComTentativas, type EntregaRow } from './entregas-com-tentativas';
import type { ListarEntregasRequest } from './listar-entregas.request';

/** A page of the log, as one statement: its text and parameters. */
export interface ConsultaDaPagina {
  sql: string;
  params: unknown[];
}

/**
 * The statement of a page: the count of the store's deliveries the filters keep, and the page,
 * newest first, from one snapshot (two queries could count deliveries the page did not see). It
 * returns one row even past the last page, and one delivery more than the page holds, to tell
 * whether another page follows. Only the filters given are in it, so the count of an unfiltered
 * log reads the index alone. Both read the store's range of `entregas_da_loja (id_loja, posicao)`;
 * after a cursor the page starts where the last one ended in that index, so reading it costs the
 * same at any depth (OFFSET would read and skip every delivery before it).
 */
export function consultaDaPagina(idLoja: number, filtros: Pick<ListarEntregasRequest, 'status' | 'evento' | 'desde' | 'ate'>, porPagina: number, onde: { antesDe: number } | { offset: number }): ConsultaDaPagina {
  const params: unknown[] = [idLoja];
  const condicoes = ['id_loja = $1'];
  const filtro = (condicao: (parametro: string) => string, valor: unknown) => {
    if (valor === undefined) return;
    params.push(valor);
    condicoes.push(condicao(`$${params.length}`));
  };
  filtro((p) => `status = ${p}`, filtros.status);
  filtro((p) => `evento = ${p}`, filtros.evento);
  filtro((p) => `ocorrido_em >= ${p}::timestamptz`, filtros.desde);
  filtro((p) => `ocorrido_em <= ${p}::timestamptz`, filtros.ate);
  const daLoja = condicoes.join(' AND ');
  params.push(porPagina + 1);
  const limite = `$${params.length}`;
  let pagina: string;
  if ('antesDe' in onde) {
    params.push(onde.antesDe);
    pagina = `WHERE ${daLoja} AND posicao < $${params.length} ORDER BY posicao DESC LIMIT ${limite}`;
  } else {
    params.push(onde.offset);
    pagina = `WHERE ${daLoja} ORDER BY posicao DESC LIMIT ${limite} OFFSET $${params.length}`;
  }
  return {
    sql: `SELECT (SELECT count(*)::int FROM entregas WHERE ${daLoja}) AS total,
                 (SELECT coalesce(json_agg(pagina ORDER BY pagina.posicao DESC), '[]')
                  FROM (SELECT ${COLUNAS_ENTREGA}, posicao FROM entregas ${pagina}) AS pagina) AS entregas`,
    params,
  };
}

/** GET /webhook/entregas: a page of the store's deliveries, newest first, with their attempts. */
@Injectable()
export class ListarEntregasHandler {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** `paginaPedida`: the request named `pagina` (which a cursor replaces). */
  async execute(idLoja: number, request: ListarEntregasRequest, paginaPedida: boolean): Promise<EntregasResponse> {
    const { porPagina } = request;
    let pagina = request.pagina;
    let onde: { antesDe: number } | { offset: number } = { offset: (pagina - 1) * porPagina };
    if (request.cursor !== undefined) {
      if (paginaPedida) throw new InvalidInputException([{ campo: 'cursor', mensagem: 'cursor não vai com pagina' }], 'Use cursor ou pagina, não os dois: o cursor já diz qual página vem.');
      const cursor = lerCursor(request.cursor);
      if (!cursor) throw new InvalidInputException([{ campo: 'cursor', mensagem: 'cursor inválido: use o proximoCursor de uma resposta anterior' }], 'O cursor não é um proximoCursor dado por esta API.');
      pagina = cursor.pagina;
      onde = { antesDe: cursor.antesDe };
    }
    const { sql, params } = consultaDaPagina(idLoja, request, porPagina, onde);
    // The page and its attempts from one snapshot: an attempt recorded between two reads would show beside the state before it.
    return this.dataSource.transaction('REPEATABLE READ', async (manager) => {
      const [{ total, entregas }]: { total: number; entregas: (EntregaRow & { posicao: number })[] }[] = await manager.query(sql, params);
      const mostradas = entregas.slice(0, porPagina);
      const proximoCursor = entregas.length > porPagina ? cursorTexto({ antesDe: mostradas[mostradas.length - 1].posicao, pagina: pagina + 1 }) : null;
      return { pagina, porPagina, total, totalPaginas: Math.ceil(total / porPagina), entregas: await entregasComTentativas(manager, mostradas), proximoCursor };
    });
  }
}
