import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { TIPOS_PEDIDO, type TipoPedido } from '@trilha/contracts';
import { INTENCOES } from '@trilha/atendimento-domain';

/** What an answer was based on: an order of the store, or an FAQ entry. */
export class ReferenciaAgenteResponse {
  @ApiProperty({ enum: ['pedido', 'faq'] }) tipo: string;
  @ApiPropertyOptional() idPedido?: string;
  @ApiPropertyOptional() numeroPedido?: string;
  @ApiPropertyOptional({ enum: TIPOS_PEDIDO }) tipoPedido?: TipoPedido;
  @ApiPropertyOptional() linkRastreio?: string;
  @ApiPropertyOptional({ description: 'A pergunta frequente cuja resposta foi dada.' }) pergunta?: string;
  @ApiPropertyOptional({ minimum: 0, maximum: 1, description: 'Quanto da pergunta frequente a mensagem cobre (0–1).' }) confianca?: number;
}

export class ConversarResponse {
  @ApiProperty({ description: 'O idConversa do pedido; sem ele, o de uma nova conversa (UUIDv7).' }) idConversa: string;
  @ApiProperty() resposta: string;
  @ApiProperty({ enum: INTENCOES }) intencao: string;
  @ApiProperty({ type: [ReferenciaAgenteResponse] }) referencias: ReferenciaAgenteResponse[];
}
