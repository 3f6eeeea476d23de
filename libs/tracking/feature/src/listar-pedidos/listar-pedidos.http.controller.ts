import { Controller, Get, Header, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CarriesCredential, IdLoja } from '@trilha/http';
import { ListarPedidosHandler } from './listar-pedidos.handler';
import { ListarPedidosRequest } from './listar-pedidos.request';
import { ListaPedidosResponse } from './listar-pedidos.response';

@ApiTags('Pedidos')
@Controller('pedidos')
export class ListarPedidosHttpController {
  constructor(private readonly handler: ListarPedidosHandler) {}

  @Get()
  @CarriesCredential()
  @Header('Content-Type', 'application/json; charset=utf-8')
  @ApiOperation({ operationId: 'listarPedidos', summary: 'Lista os pedidos da loja com paginação e filtros (tipoPedido, situacao, período de dataPedido).' })
  @ApiOkResponse({ type: ListaPedidosResponse })
  listar(@IdLoja() idLoja: number, @Query() query: ListarPedidosRequest): Promise<string> {
    return this.handler.execute(idLoja, query);
  }
}
