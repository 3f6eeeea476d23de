import { Controller, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { AdminKeyGuard } from '../auth/admin-key.guard';
import { SemToken } from '@trilha/http';
import { idLojaPipe } from '../id-loja.pipe';
import { LojaCommandsService } from '../loja-commands.service';
import { LojaResponse } from '../loja.response';

/** Deactivating revokes every token of the store on every gateway replica; activating allows new ones. */
@ApiTags('Operador')
@ApiSecurity('admin-key')
@Controller('admin/lojas/:idLoja')
@SemToken()
@UseGuards(AdminKeyGuard)
export class AlterarSituacaoHttpController {
  constructor(private readonly commands: LojaCommandsService) {}

  @Post('desativar')
  @HttpCode(200)
  @ApiOperation({ operationId: 'desativarLoja', summary: 'Desativa a loja: seus tokens e seu código deixam de valer.' })
  @ApiOkResponse({ type: LojaResponse })
  async desativar(@Param('idLoja', idLojaPipe) idLoja: number): Promise<LojaResponse> {
    await this.commands.executar(idLoja, { acao: 'desativar', agora: new Date().toISOString() });
    return this.commands.ler(idLoja);
  }

  @Post('ativar')
  @HttpCode(200)
  @ApiOperation({ operationId: 'ativarLoja', summary: 'Reativa a loja; tokens emitidos antes da desativação continuam revogados.' })
  @ApiOkResponse({ type: LojaResponse })
  async ativar(@Param('idLoja', idLojaPipe) idLoja: number): Promise<LojaResponse> {
    await this.commands.executar(idLoja, { acao: 'ativar', agora: new Date().toISOString() });
    return this.commands.ler(idLoja);
  }
}
