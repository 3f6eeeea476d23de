import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsOptional, MaxLength } from 'class-validator';
import { TIPOS_PEDIDO, type TipoPedido } from '@trilha/tracking-domain';
import { MENSAGEM_TIPO_PEDIDO } from '../salvar-pedido/salvar-pedido.request';
import { Texto } from '../validation';

export const CHAVES_PEDIDO = ['idPedido', 'numeroPedido', 'pedidoCanal'] as const;

export class ConsultarPedidoRequest {
  @ApiProperty({ enum: CHAVES_PEDIDO, maxLength: 20, description: 'Filtro: idPedido, numeroPedido ou pedidoCanal.' })
  @MaxLength(20, { message: 'chave deve ter no máximo 20 caracteres' })
  @IsIn(CHAVES_PEDIDO, { message: `chave deve ser uma de: ${CHAVES_PEDIDO.join(', ')}` })
  chave: (typeof CHAVES_PEDIDO)[number];

  @Texto(100, { description: 'Valor do filtro.' }) valor: string;

  @ApiProperty({ enum: TIPOS_PEDIDO, required: false, description: 'Desempata um numeroPedido com envio e reversa (sem ele, o envio).' })
  @IsOptional()
  @IsIn(TIPOS_PEDIDO, { message: MENSAGEM_TIPO_PEDIDO })
  tipoPedido?: TipoPedido;
}
