import { Controller, Delete, Get, HttpCode, Req, Res } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { PortalSession } from '@trilha/http';
import type { PortalRequest } from '../auth/loja-auth.guard';
import { SessoesPortalService } from '../auth/sessoes-portal.service';
import { LojaCommandsService } from '../loja-commands.service';
import { PORTAL_COOKIE_HEADER, setPortalCookie } from '../portal-cookie';
import { SessaoPortalResponse } from '../portal.response';

/** The portal's own session: what it is (the portal's header), and leaving it (its "Sair"). */
@ApiTags('Portal')
@Controller('portal/sessao')
export class SessaoPortalHttpController {
  constructor(
    private readonly commands: LojaCommandsService,
    private readonly sessoes: SessoesPortalService,
  ) {}

  @Get()
  @PortalSession({ only: true })
  @ApiOperation({ operationId: 'consultarSessaoPortal', summary: 'A sessão do portal em uso: a loja, a capacidade e quando termina.' })
  @ApiOkResponse({ type: SessaoPortalResponse })
  async consultar(@Req() request: PortalRequest): Promise<SessaoPortalResponse> {
    const sessao = request.sessaoPortal!;
    const loja = await this.commands.ler(sessao.idLoja);
    return { idLoja: loja.idLoja, nomeLoja: loja.nome, capacidade: sessao.capacidade, expiraEm: sessao.expiraEm.toISOString() };
  }

  @Delete()
  @HttpCode(204)
  @PortalSession({ only: true, readOnlySessionMayChange: true })
  @ApiOperation({ operationId: 'sairDoPortal', summary: 'Encerra a sessão do portal em uso e apaga o seu cookie.' })
  @ApiNoContentResponse({ description: 'Sessão encerrada.', headers: PORTAL_COOKIE_HEADER })
  async sair(@Req() request: PortalRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    await this.sessoes.encerrar(request.sessaoPortal!.hash);
    setPortalCookie(reply, '', 0);
  }
}
