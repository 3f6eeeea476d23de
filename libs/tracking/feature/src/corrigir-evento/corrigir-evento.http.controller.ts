import { Body, Controller, Param, Put } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdLoja } from '@trilha/http';
import { EventoRastreioResponse } from '../consultar-rastreio/registro-rastreio.response';
import { CorrigirEventoHandler } from './corrigir-evento.handler';
import { CorrigirEventoRequest } from './corrigir-evento.request';

@ApiTags('Rastreio')
@Controller('pedidoRastreio/evento')
export class CorrigirEventoHttpController {
  constructor(private readonly handler: CorrigirEventoHandler) {}

  @Put(':hash')
  @ApiOperation({
    operationId: 'corrigirEventoRastreio',
    summary: 'Corrige dataHora, descricao, sigla ou visivelClienteFinal de um evento; o hash não muda.',
    description: 'A correção fica no histórico do pedido como um fato novo; o rastreio passa a mostrar os valores corrigidos. Vale também em volume encerrado.',
  })
  @ApiOkResponse({ type: EventoRastreioResponse, description: 'O evento com os valores corrigidos.' })
  @ApiNotFoundResponse({ description: 'Hash desconhecido nesta loja.' })
  corrigir(@IdLoja() idLoja: number, @Param('hash') hash: string, @Body() body: CorrigirEventoRequest): Promise<EventoRastreioResponse> {
    return this.handler.execute(idLoja, hash, body);
  }
}
