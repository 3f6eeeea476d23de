import { Body, Controller, Put, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { CarriesCredential, IdLoja } from '@trilha/http';
import { PedidoResponse } from '../pedido.response';
import { SalvarPedidoHandler } from './salvar-pedido.handler';
import { SalvarPedidoRequest } from './salvar-pedido.request';

@ApiTags('Pedidos')
@Controller('pedido')
export class SalvarPedidoHttpController {
  constructor(private readonly handler: SalvarPedidoHandler) {}

  @Put()
  @CarriesCredential()
  @ApiOperation({
    operationId: 'salvarPedido',
    summary: 'Cria ou atualiza um pedido (upsert por numeroPedido + tipoPedido na loja do token).',
    description: 'O corpo é o pedido inteiro: campos opcionais ausentes ficam vazios. 201 quando cria, 200 quando atualiza.',
  })
  @ApiCreatedResponse({ type: PedidoResponse, description: 'Pedido criado.' })
  @ApiOkResponse({ type: PedidoResponse, description: 'Pedido atualizado (ou já igual).' })
  async salvar(@IdLoja() idLoja: number, @Body() body: SalvarPedidoRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<PedidoResponse> {
    const { criado, pedido } = await this.handler.execute(idLoja, body);
    reply.status(criado ? 201 : 200);
    return pedido;
  }
}
