import { ApiProperty } from '@nestjs/swagger';
import { PedidoResponse } from '../pedido.response';

export class ListaPedidosResponse {
  @ApiProperty({ example: 1 }) pagina: number;
  @ApiProperty({ example: 20 }) porPagina: number;
  @ApiProperty({ description: 'Pedidos que passam pelos filtros, em todas as páginas.' }) total: number;
  @ApiProperty() totalPaginas: number;
  @ApiProperty({ type: [PedidoResponse], description: 'dataPedido mais recente primeiro; empates por idPedido.' }) pedidos: PedidoResponse[];
}
