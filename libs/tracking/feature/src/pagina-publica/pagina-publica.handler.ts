import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { vistaDoCliente } from '@trilha/tracking-domain';
import { TOKEN_RASTREIO } from '../ids';
import { paginaNaoEncontrada, paginaRastreio } from './pagina-publica.html';

/** The public tracking page of the order a linkRastreio token names: its HTML, or the page of a token that names none (404). */
@Injectable()
export class PaginaPublicaHandler {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async execute(token: string): Promise<{ status: 200 | 404; html: string }> {
    const [row]: { numero_pedido: string; documento: string | null }[] = TOKEN_RASTREIO.test(token)
      ? await this.dataSource.query(
          `SELECT p.numero_pedido, r.documento FROM pedidos p LEFT JOIN rastreios r ON r.id_pedido = p.id_pedido WHERE p.token_rastreio = $1`,
          [token],
        )
      : [];
    if (!row) return { status: 404, html: paginaNaoEncontrada() };
    return { status: 200, html: paginaRastreio(vistaDoCliente(row.documento && JSON.parse(row.documento), row.numero_pedido)) };
  }
}
