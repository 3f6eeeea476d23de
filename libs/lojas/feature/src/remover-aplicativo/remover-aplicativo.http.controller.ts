import { Controller, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { AdminKeyGuard } from '../auth/admin-key.guard';
import { SemToken } from '@trilha/http';
import { idLojaPipe } from '../id-loja.pipe';
import { LojaCommandsService } from '../loja-commands.service';
import { AplicativoRemovidoResponse } from '../loja.response';

@ApiTags('Operador')
@ApiSecurity('admin-key')
@Controller('admin/lojas/:idLoja/aplicativo')
@SemToken()
@UseGuards(AdminKeyGuard)
export class RemoverAplicativoHttpController {
  constructor(private readonly commands: LojaCommandsService) {}

  @Post('remover')
  @HttpCode(202)
  @ApiOperation({ operationId: 'removerAplicativo', summary: 'Registra a remoção do aplicativo; emite aplicativo.removido.' })
  @ApiAcceptedResponse({ type: AplicativoRemovidoResponse })
  async remover(@Param('idLoja', idLojaPipe) idLoja: number): Promise<AplicativoRemovidoResponse> {
    const dataRemocao = new Date().toISOString();
    await this.commands.executar(idLoja, { acao: 'removerAplicativo', agora: dataRemocao });
    return { idLoja, dataRemocao };
  }
}
