import { Controller, Get, Header, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CarriesCredential, IdLoja } from '@trilha/http';
import { PedidoResponse } from '../pedido.response';
import { ConsultarPedidoHandler } from './consultar-pedido.handler';
import { ConsultarPedidoRequest } from './consultar-pedido.request';

@ApiTags('Pedidos')
@Controller('pedido')
export class ConsultarPedidoHttpController {
  constructor(private readonly handler: ConsultarPedidoHandler) {}

  @Get()
  @CarriesCredential()
  @Header('Content-Type', 'application/json; charset=utf-8')
  @ApiOperation({ operationId: 'consultarPedido', summary: 'Um pedido da loja por idPedido, numeroPedido ou pedidoCanal.' })
  @ApiOkResponse({ type: PedidoResponse })
  @ApiNotFoundResponse({ description: 'Nenhum pedido da loja com esse filtro.' })
  consultar(@IdLoja() idLoja: number, @Query() query: ConsultarPedidoRequest): Promise<string> {
    return this.handler.execute(idLoja, query);
  }
}
