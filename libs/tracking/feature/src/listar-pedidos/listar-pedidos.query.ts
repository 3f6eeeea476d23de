import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { SITUACOES, type Situacao, type TipoPedido } from '@trilha/tracking-domain';
import { TIPOS_PEDIDO } from '../salvar-pedido/salvar-pedido.request';
import { DataHora } from '../validation';

export class ListarPedidosQuery {
  @ApiProperty({ required: false, default: 1, minimum: 1 })
  @Type(() => Number)
  @IsInt({ message: 'pagina deve ser um número inteiro' })
  @Min(1, { message: 'pagina deve ser 1 ou mais' })
  @Max(1_000_000, { message: 'pagina deve ser no máximo 1000000' })
  pagina: number = 1;

  @ApiProperty({ required: false, default: 20, minimum: 1, maximum: 100 })
  @Type(() => Number)
  @IsInt({ message: 'porPagina deve ser um número inteiro' })
  @Min(1, { message: 'porPagina deve estar entre 1 e 100' })
  @Max(100, { message: 'porPagina deve estar entre 1 e 100' })
  porPagina: number = 20;

  @ApiProperty({ enum: TIPOS_PEDIDO, required: false })
  @IsOptional()
  @IsIn(TIPOS_PEDIDO, { message: 'tipoPedido deve ser envio ou reversa' })
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
