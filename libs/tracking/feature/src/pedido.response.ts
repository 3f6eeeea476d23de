import { ApiProperty } from '@nestjs/swagger';
import { SITUACOES, TIPOS_PEDIDO, type Pedido } from '@trilha/tracking-domain';
import { ClientePedido, EnderecoPedido, ItemPedido } from './salvar-pedido/salvar-pedido.request';

/** An order as the API shows it (docs/API.md section 3). */
export class PedidoResponse {
  @ApiProperty({
    maxLength: 32,
    example: '0192f2c45e3a7b1c9d2e3f4a5b6c7d8e',
    description: 'Dado pela plataforma: um UUIDv7 sem hífens (32 caracteres hexadecimais), em ordem de criação. Trate-o como texto opaco.',
  })
  idPedido: string;
  @ApiProperty({ maxLength: 100 }) numeroPedido: string;
  @ApiProperty({ enum: TIPOS_PEDIDO }) tipoPedido: string;
  @ApiProperty({ type: String, maxLength: 100, nullable: true }) pedidoCanal: string | null;
  @ApiProperty({ type: String, maxLength: 50, nullable: true }) canalVenda: string | null;
  @ApiProperty({ enum: SITUACOES }) situacao: string;

  @ApiProperty({ type: ClientePedido, nullable: true, description: 'Nulo num pedido criado pelo seu primeiro evento de rastreio, até um PUT /pedido completá-lo.' })
  cliente: ClientePedido | null;

  @ApiProperty({ type: EnderecoPedido, nullable: true }) enderecoEntrega: EnderecoPedido | null;
  @ApiProperty({ type: [ItemPedido] }) itens: ItemPedido[];
  @ApiProperty() valorTotal: number;
  @ApiProperty({ format: 'date-time' }) dataPedido: string;
  @ApiProperty({ maxLength: 255, description: 'Página pública de rastreio do pedido, para o cliente final.' }) linkRastreio: string;
  @ApiProperty({ format: 'date-time' }) criadoEm: string;
  @ApiProperty({ format: 'date-time' }) atualizadoEm: string;
}

export function pedidoResposta(pedido: Pedido): PedidoResponse {
  return {
    idPedido: pedido.idPedido,
    numeroPedido: pedido.numeroPedido,
    tipoPedido: pedido.tipoPedido,
    pedidoCanal: pedido.pedidoCanal,
    canalVenda: pedido.canalVenda,
    situacao: pedido.situacao,
    cliente: pedido.cliente,
    enderecoEntrega: pedido.enderecoEntrega,
    itens: pedido.itens,
    valorTotal: pedido.valorTotal,
    dataPedido: pedido.dataPedido,
    linkRastreio: pedido.linkRastreio,
    criadoEm: pedido.criadoEm,
    atualizadoEm: pedido.atualizadoEm,
  };
}
