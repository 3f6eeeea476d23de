import { Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { pgPool, StatementPerTurn } from '@trilha/event-store';
import { TIPO_PEDIDO_PADRAO } from '@trilha/tracking-domain';
import type { CHAVES_RASTREIO, ConsultarRastreioRequest } from './consultar-rastreio.request';

// Each filter's lookup for the read `q`, scoped to its store.
const BUSCAS: Record<(typeof CHAVES_RASTREIO)[number], string> = {
  idPedido: `SELECT r.documento FROM rastreios r WHERE r.id_loja = q.id_loja AND r.id_pedido = q.valor`,
  numeroPedido: `SELECT r.documento FROM rastreios r WHERE r.id_loja = q.id_loja AND r.numero_pedido = q.valor`,
  pedidoCanal: `SELECT r.documento FROM rastreios r WHERE r.id_loja = q.id_loja AND r.pedido_canal = q.valor`,
  // A tracking code finds its order, and the record has every volume of it.
  codigoRastreio: `SELECT r.documento FROM rastreio_codigos c JOIN rastreios r ON r.id_pedido = c.id_pedido WHERE c.id_loja = q.id_loja AND c.codigo_rastreio = q.valor`,
};
// Ties go to tipoPedido, else the envio, else the newest.
const DESEMPATE = `(q.tipo_pedido IS NULL OR r.tipo_pedido = q.tipo_pedido) ORDER BY r.tipo_pedido = '${TIPO_PEDIDO_PADRAO}' DESC, r.id_pedido DESC LIMIT 1`;
const FILTROS = Object.entries(BUSCAS);
/**
 * One row per read, in the reads' order, its record or NULL. Each read's filter guards its
 * lookup (`q.chave = …` names no column of the lookup, so PostgreSQL makes it a one-time
 * filter): only that lookup runs, on its index.
 */
const CONSULTA = `
  SELECT COALESCE(${FILTROS.map((_, n) => `f${n}.documento`).join(', ')}) AS documento
  FROM unnest($1::int[], $2::text[], $3::text[], $4::text[]) WITH ORDINALITY AS q(id_loja, chave, valor, tipo_pedido, i)
  ${FILTROS.map(([chave, busca], n) => `LEFT JOIN LATERAL (${busca} AND q.chave = '${chave}' AND ${DESEMPATE}) f${n} ON true`).join('\n  ')}
  ORDER BY q.i`;

interface Leitura {
  idLoja: number;
  query: ConsultarRastreioRequest;
}

/**
 * GET /pedidoRastreio: returns the stored record as it is sent. The hottest route of the API,
 * so it skips TypeORM's query runner and uses a named prepared statement on the same pool (each
 * connection plans it once), shared by the reads of a turn (`StatementPerTurn`): each is
 * answered from its own row.
 */
@Injectable()
export class ConsultarRastreioHandler {
  private readonly leituras = new StatementPerTurn<Leitura, string | null>((leituras) => this.consultar(leituras));

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async execute(idLoja: number, query: ConsultarRastreioRequest): Promise<string> {
    const documento = await this.leituras.submit({ idLoja, query });
    if (documento === null) throw new NotFoundException('Nenhum rastreio manual para esse filtro nesta loja.');
    return documento;
  }

  private async consultar(leituras: Leitura[]): Promise<(string | null)[]> {
    const { rows } = await pgPool(this.dataSource).query<{ documento: string | null }>({
      name: 'rastreios-do-turno',
      text: CONSULTA,
      values: [
        leituras.map(({ idLoja }) => idLoja),
        leituras.map(({ query }) => query.chave),
        leituras.map(({ query }) => query.valor),
        leituras.map(({ query }) => query.tipoPedido ?? null),
      ],
    });
    return rows.map(({ documento }) => documento);
  }
}
