import { Body, Controller, HttpCode, NotFoundException, Param, Post } from '@nestjs/common';
import { ApiConflictResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdLoja } from '@trilha/http';
import { ID_MAX } from '../novo-id';
import { ConversarHandler } from './conversar.handler';
import { ConversarRequest } from './conversar.request';
import { ConversarResponse } from './conversar.response';

@ApiTags('Agentes')
@Controller('agentes/:idAgente/conversar')
export class ConversarHttpController {
  constructor(private readonly handler: ConversarHandler) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'conversarComAgente',
    summary: 'Envia uma mensagem a um agente e recebe a resposta: rastreio dos pedidos da loja, pergunta frequente ou a oferta de um atendente.',
  })
  @ApiOkResponse({ type: ConversarResponse })
  @ApiConflictResponse({ description: 'O atendimento informado está encerrado.' })
  conversar(@IdLoja() idLoja: number, @Param('idAgente') idAgente: string, @Body() body: ConversarRequest): Promise<ConversarResponse> {
    if (idAgente.length > ID_MAX) throw new NotFoundException('Agente não encontrado.');
    return this.handler.execute(idLoja, idAgente, body);
  }
}
