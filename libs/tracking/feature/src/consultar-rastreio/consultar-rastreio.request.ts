import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsOptional, MaxLength } from 'class-validator';
import { TIPOS_PEDIDO, type TipoPedido } from '@trilha/tracking-domain';
import { MENSAGEM_TIPO_PEDIDO } from '../salvar-pedido/salvar-pedido.request';
import { Texto } from '../validation';

export const CHAVES_RASTREIO = ['numeroPedido', 'pedidoCanal', 'codigoRastreio', 'idPedido'] as const;

/** GET /pedidoRastreio's query parameters (docs/API.md section 4), and `tipoPedido` as the tie-breaker. */
export class ConsultarRastreioRequest {
  @ApiProperty({ enum: CHAVES_RASTREIO, maxLength: 20, description: 'Filtro. codigoRastreio devolve todos os volumes do pedido desse código.' })
  @MaxLength(20, { message: 'chave deve ter no máximo 20 caracteres' })
  @IsIn(CHAVES_RASTREIO, { message: `chave deve ser uma de: ${CHAVES_RASTREIO.join(', ')}` })
  chave: (typeof CHAVES_RASTREIO)[number];

  @Texto(100, { description: 'Valor do filtro.' }) valor: string;

  @ApiProperty({ enum: TIPOS_PEDIDO, required: false, description: 'Desempata envio e reversa com o mesmo número (sem ele, o envio).' })
  @IsOptional()
  @IsIn(TIPOS_PEDIDO, { message: MENSAGEM_TIPO_PEDIDO })
  tipoPedido?: TipoPedido;
}
