import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { ListarPedidosRequest } from './listar-pedidos.request';

/**
 * The store's orders, newest dataPedido first, ties by idPedido, one page at a time. A period
 * whose dataInicio is after its dataFim holds no order: its page is empty, as any valid filter
 * that matches nothing.
 */
@Injectable()
export class ListarPedidosHandler {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The page's JSON, assembled around the orders' stored JSON. */
  async execute(idLoja: number, query: ListarPedidosRequest): Promise<string> {
    const where = `id_loja = $1 AND ($2::text IS NULL OR tipo_pedido = $2) AND ($3::text IS NULL OR situacao = $3)
                   AND ($4::timestamptz IS NULL OR data_pedido >= $4) AND ($5::timestamptz IS NULL OR data_pedido <= $5)`;
    const filters = [idLoja, query.tipoPedido ?? null, query.situacao ?? null, query.dataInicio ?? null, query.dataFim ?? null];
    // One statement, so the count and the page come from one snapshot (two queries could count
    // orders the page did not see). It returns one row even past the last page; the page is the
    // orders' stored JSON already joined with commas.
    const [{ total, pedidos }]: { total: number; pedidos: string }[] = await this.dataSource.query(
      `SELECT (SELECT count(*)::int FROM pedidos WHERE ${where}) AS total,
              (SELECT coalesce(string_agg(documento, ',' ORDER BY data_pedido DESC, id_pedido), '')
               FROM (SELECT documento, data_pedido, id_pedido FROM pedidos WHERE ${where}
                     ORDER BY data_pedido DESC, id_pedido LIMIT $6 OFFSET $7) AS pagina) AS pedidos`,
      [...filters, query.porPagina, (query.pagina - 1) * query.porPagina],
    );
    const cabecalho = { pagina: query.pagina, porPagina: query.porPagina, total, totalPaginas: Math.ceil(total / query.porPagina) };
    return `${JSON.stringify(cabecalho).slice(0, -1)},"pedidos":[${pedidos}]}`;
  }
}
