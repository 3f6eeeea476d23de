import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBearerAuth, ApiConflictResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdLoja, PortalSession } from '@trilha/http';
import { EntregaResponse } from '../listar-entregas/entrega.response';
import { ReenviarEntregaHandler } from './reenviar-entrega.handler';

@ApiTags('Webhook')
@PortalSession()
@ApiBearerAuth()
@Controller('webhook/entregas')
export class ReenviarEntregaHttpController {
  constructor(private readonly handler: ReenviarEntregaHandler) {}

  @Post(':idEntrega/reenviar')
  @HttpCode(202)
  @ApiOperation({ operationId: 'reenviarEntrega', summary: 'Envia a entrega de novo, agora.' })
  @ApiAcceptedResponse({ type: EntregaResponse, description: 'A entrega como está; a nova tentativa aparece nela quando feita.' })
  @ApiConflictResponse({ description: 'A loja não tem webhook cadastrado, ou ele está desativado.' })
  reenviar(@IdLoja() idLoja: number, @Param('idEntrega') idEntrega: string): Promise<EntregaResponse> {
    return this.handler.execute(idLoja, idEntrega);
  }
}
