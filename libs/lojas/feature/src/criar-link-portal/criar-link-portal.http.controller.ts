import { Body, Controller, HttpCode, Param, Post, Req, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiCreatedResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CarriesCredential, SemToken, type AuthenticatedRequest } from '@trilha/http';
import { AdminKeyGuard } from '../auth/admin-key.guard';
import { idLojaPipe } from '../id-loja.pipe';
import { LinkPortalResponse } from '../portal.response';
import { CriarLinkPortalHandler } from './criar-link-portal.handler';
import { CriarLinkPortalRequest } from './criar-link-portal.request';

const RESUMO = 'Cria um link de uso único para o portal da loja, que deve ser aberto em até 15 minutos.';
/** Every field has a default: the body may be left out. */
const corpoOpcional = () => ApiBody({ type: CriarLinkPortalRequest, required: false });

/** The store's backend asks for a link to hand to a person of the store (its admin panel's button). */
@ApiTags('Portal')
@ApiBearerAuth()
@Controller('portal/links')
export class CriarLinkPortalHttpController {
  constructor(private readonly handler: CriarLinkPortalHandler) {}

  @Post()
  @CarriesCredential()
  @HttpCode(201)
  @ApiOperation({ operationId: 'criarLinkPortal', summary: RESUMO })
  @corpoOpcional()
  @ApiCreatedResponse({ type: LinkPortalResponse })
  criar(@Req() request: AuthenticatedRequest, @Body() body: CriarLinkPortalRequest): Promise<LinkPortalResponse> {
    return this.handler.execute(request.loja!.idLoja, body);
  }
}

/** The operator mints a link for any store (support). */
@ApiTags('Operador')
@ApiSecurity('admin-key')
@Controller('admin/lojas/:idLoja/portal/links')
@SemToken()
@UseGuards(AdminKeyGuard)
export class CriarLinkPortalAdminHttpController {
  constructor(private readonly handler: CriarLinkPortalHandler) {}

  @Post()
  @CarriesCredential()
  @HttpCode(201)
  @ApiOperation({ operationId: 'criarLinkPortalDaLoja', summary: `${RESUMO} Para qualquer loja, com a chave do operador.` })
  @corpoOpcional()
  @ApiCreatedResponse({ type: LinkPortalResponse })
  criar(@Param('idLoja', idLojaPipe) idLoja: number, @Body() body: CriarLinkPortalRequest): Promise<LinkPortalResponse> {
    return this.handler.execute(idLoja, body);
  }
}
