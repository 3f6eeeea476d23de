import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiConflictResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Idempotente } from '@trilha/event-store';
import { CarriesCredential, IdLoja } from '@trilha/http';
import { ConversarComAgenteHandler } from './conversar-com-agente.handler';
import { ConversarRequest } from './conversar-com-agente.request';
import { ConversarResponse } from './conversar-com-agente.response';

@ApiTags('Agentes')
@Controller('agentes/:idAgente/conversar')
export class ConversarComAgenteHttpController {
  constructor(private readonly handler: ConversarComAgenteHandler) {}

  @Post()
  @Idempotente()
  @CarriesCredential()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'conversarComAgente',
    summary: 'Envia uma mensagem a um agente e recebe a resposta: rastreio dos pedidos da loja, pergunta frequente ou a oferta de um atendente.',
  })
  @ApiOkResponse({ type: ConversarResponse })
  @ApiConflictResponse({ description: 'O atendimento informado está encerrado.' })
  conversar(@IdLoja() idLoja: number, @Param('idAgente') idAgente: string, @Body() body: ConversarRequest): Promise<ConversarResponse> {
    return this.handler.execute(idLoja, idAgente, body);
  }
}
