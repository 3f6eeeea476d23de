import { Controller, Get, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { PortalSession, type AuthenticatedRequest } from '@trilha/http';
import { LojaCommandsService } from '../loja-commands.service';
import { LojaResponse } from '../loja.response';

/** The store a token belongs to: lets an integrator check its token and configuration. */
@ApiTags('Autenticação')
@PortalSession()
@ApiBearerAuth()
@Controller('loja')
export class LojaAtualHttpController {
  constructor(private readonly commands: LojaCommandsService) {}

  @Get()
  @ApiOperation({ operationId: 'consultarLojaAtual', summary: 'A loja do token usado.' })
  @ApiOkResponse({ type: LojaResponse })
  consultar(@Req() request: AuthenticatedRequest): Promise<LojaResponse> {
    return this.commands.ler(request.loja!.idLoja);
  }
}
