import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { Paginacao, DataHora } from '@trilha/http';
import { SITUACOES, TIPOS_PEDIDO, type Situacao, type TipoPedido } from '@trilha/tracking-domain';
import { MENSAGEM_TIPO_PEDIDO } from '../salvar-pedido/salvar-pedido.request';

export class ListarPedidosRequest extends Paginacao {
  @ApiProperty({ enum: TIPOS_PEDIDO, required: false })
  @IsOptional()
  @IsIn(TIPOS_PEDIDO, { message: MENSAGEM_TIPO_PEDIDO })
  tipoPedido?: TipoPedido;

  @ApiProperty({ enum: SITUACOES, required: false })
  @IsOptional()
  @IsIn(SITUACOES, { message: `situacao deve ser uma de: ${SITUACOES.join(', ')}` })
  situacao?: Situacao;

  @IsOptional()
  @DataHora({ required: false, description: 'Pedidos com dataPedido a partir deste momento (inclusive).' })
  dataInicio?: string;

  @IsOptional()
  @DataHora({ required: false, description: 'Pedidos com dataPedido até este momento (inclusive).' })
  dataFim?: string;
}
