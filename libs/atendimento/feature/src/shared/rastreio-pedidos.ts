import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { TipoPedido } from '@trilha/contracts';
import type { PedidoRastreado } from '@trilha/atendimento-domain';

/** How many orders one answer may name. */
const MAX_PEDIDOS = 5;

interface PedidoRow {
  id_pedido: string;
  numero_pedido: string;
  tipo_pedido: TipoPedido;
  pedido_canal: string | null;
  link_rastreio: string;
}

interface VolumeEventoRow {
  id_pedido: string;
  chave_envio: string;
  codigo_rastreio: string | null;
  codigo_envio: string | null;
  rotulo: string | null;
  encerrado: boolean;
  data_hora: string | null;
  descricao: string | null;
  ordem_evento: string | null;
}

/** Reads of the agents' tracking view (kept by rastreio-pedidos' consumer, read by the agents): always within one store, and customer-visible events only. */
@Injectable()
export class RastreioPedidos {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The store's orders whose number, channel number or a volume's tracking code is one of `identificadores` (upper-cased). */
  async buscar(idLoja: number, identificadores: string[]): Promise<PedidoRastreado[]> {
    if (identificadores.length === 0) return [];
    const pedidos = await this.dataSource.query<PedidoRow[]>(
      `SELECT id_pedido, numero_pedido, tipo_pedido, pedido_canal, link_rastreio FROM rastreio_pedidos
       WHERE id_loja = $1 AND (upper(numero_pedido) = ANY($2) OR upper(pedido_canal) = ANY($2)
         OR id_pedido IN (SELECT id_pedido FROM rastreio_volumes WHERE id_loja = $1 AND upper(codigo_rastreio) = ANY($2)))
       ORDER BY numero_pedido, tipo_pedido, id_pedido
       LIMIT ${MAX_PEDIDOS}`,
      [idLoja, identificadores],
    );
    if (pedidos.length === 0) return [];
    const rows = await this.dataSource.query<VolumeEventoRow[]>(
      `SELECT v.id_pedido, v.chave_envio, v.codigo_rastreio, v.codigo_envio, v.rotulo, v.encerrado,
              e.data_hora, e.descricao, e.ordem AS ordem_evento
       FROM rastreio_volumes v
       LEFT JOIN rastreio_eventos e ON e.id_loja = v.id_loja AND e.id_pedido = v.id_pedido AND e.chave_envio = v.chave_envio AND e.visivel
       WHERE v.id_loja = $1 AND v.id_pedido = ANY($2)
       ORDER BY v.ordem, e.ordem`,
      [idLoja, pedidos.map((pedido) => pedido.id_pedido)],
    );
    return pedidos.map((pedido) => {
      const volumes = new Map<string, PedidoRastreado['volumes'][number]>();
      for (const row of rows.filter((r) => r.id_pedido === pedido.id_pedido)) {
        let volume = volumes.get(row.chave_envio);
        if (!volume) {
          volume = { chaveEnvio: row.chave_envio, codigoRastreio: row.codigo_rastreio, codigoEnvio: row.codigo_envio, rotulo: row.rotulo, encerrado: row.encerrado, eventos: [] };
          volumes.set(row.chave_envio, volume);
        }
        if (row.data_hora !== null && row.descricao !== null) {
          volume.eventos.push({ dataHora: row.data_hora, descricao: row.descricao, visivelClienteFinal: true, ordem: Number(row.ordem_evento) });
        }
      }
      return {
        idPedido: pedido.id_pedido,
        numeroPedido: pedido.numero_pedido,
        tipoPedido: pedido.tipo_pedido,
        pedidoCanal: pedido.pedido_canal,
        linkRastreio: pedido.link_rastreio,
        volumes: [...volumes.values()],
      };
    });
  }
}
