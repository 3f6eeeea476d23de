import { Controller, Get, Header, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags, ApiTooManyRequestsResponse } from '@nestjs/swagger';
import { CarriesCredential, IdLoja, LimitePorMinuto } from '@trilha/http';
import { ConsultarRastreioHandler } from './consultar-rastreio.handler';
import { ConsultarRastreioRequest } from './consultar-rastreio.request';
import { RegistroRastreioResponse } from './registro-rastreio.response';

@ApiTags('Rastreio')
@Controller('pedidoRastreio')
export class ConsultarRastreioHttpController {
  constructor(private readonly handler: ConsultarRastreioHandler) {}

  @Get()
  @CarriesCredential()
  @LimitePorMinuto(120)
  @Header('Content-Type', 'application/json; charset=utf-8')
  @ApiOperation({
    operationId: 'consultarRastreio',
    summary: 'Volumes e linha do tempo completa do rastreio manual de um pedido, eventos internos incluídos.',
    description: 'Limite: 120 requisições por minuto por loja; o 429 traz Retry-After até o próximo minuto.',
  })
  @ApiOkResponse({ type: RegistroRastreioResponse })
  @ApiNotFoundResponse({ description: 'Nenhum rastreio manual para o filtro nesta loja.' })
  @ApiTooManyRequestsResponse({ description: 'Limite de 120 por minuto excedido.' })
  consultar(@IdLoja() idLoja: number, @Query() query: ConsultarRastreioRequest): Promise<string> {
    return this.handler.execute(idLoja, query);
  }
}
