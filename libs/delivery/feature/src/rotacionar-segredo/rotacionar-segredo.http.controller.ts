import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CarriesCredential, IdLoja, PortalSession } from '@trilha/http';
import { SegredoRotacionadoResponse } from '../shared';
import { RotacionarSegredoHandler } from './rotacionar-segredo.handler';

@ApiTags('Webhook')
@PortalSession()
@ApiBearerAuth()
@Controller('webhook/segredo')
export class RotacionarSegredoHttpController {
  constructor(private readonly handler: RotacionarSegredoHandler) {}

  @Post('rotacionar')
  @CarriesCredential()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'rotacionarSegredoWebhook',
    summary: 'Gera um novo segredo de assinatura; durante a sobreposição (24 h por padrão) cada entrega leva as duas assinaturas, a nova primeiro.',
  })
  @ApiOkResponse({ type: SegredoRotacionadoResponse })
  @ApiNotFoundResponse({ description: 'A loja não tem webhook cadastrado.' })
  rotacionar(@IdLoja() idLoja: number): Promise<SegredoRotacionadoResponse> {
    return this.handler.execute(idLoja);
  }
}
