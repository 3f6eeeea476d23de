import { Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { PortalSession, type AuthenticatedRequest } from '@trilha/http';
import { SessoesPortalService } from '../auth/sessoes-portal.service';
import { SessoesEncerradasResponse } from '../portal.response';

/** Ends every portal session of the store at once, on every gateway replica (sessions are read per request). */
@ApiTags('Portal')
@ApiBearerAuth()
@Controller('portal/sessoes/encerrar')
export class EncerrarSessoesPortalHttpController {
  constructor(private readonly sessoes: SessoesPortalService) {}

  @Post()
  @HttpCode(200)
  @PortalSession()
  @ApiOperation({ operationId: 'encerrarSessoesPortal', summary: 'Encerra todas as sessões do portal da loja, a sua inclusive quando feita pelo portal.' })
  @ApiOkResponse({ type: SessoesEncerradasResponse })
  async encerrar(@Req() request: AuthenticatedRequest): Promise<SessoesEncerradasResponse> {
    return { encerradas: await this.sessoes.encerrarTodas(request.loja!.idLoja) };
  }
}
