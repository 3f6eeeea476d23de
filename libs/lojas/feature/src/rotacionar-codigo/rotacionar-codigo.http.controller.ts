import { Controller, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CarriesCredential, SemToken } from '@trilha/http';
import { AdminKeyGuard } from '../auth/admin-key.guard';
import { hashCodigo, novoCodigo } from '../codigo-da-conta';
import { idLojaPipe } from '../id-loja.pipe';
import { LojaCommandsService } from '../loja-commands.service';
import { CodigoRotacionadoResponse } from '../loja.response';

/**
 * Replaces a store's account code, for one that leaked: the old code gives no token from the
 * commit on, and every token issued up to the rotation is revoked on every gateway replica,
 * as a deactivation revokes them. The store stays active or inactive.
 */
@ApiTags('Operador')
@ApiSecurity('admin-key')
@Controller('admin/lojas/:idLoja/codigo')
@SemToken()
@UseGuards(AdminKeyGuard)
export class RotacionarCodigoHttpController {
  constructor(private readonly commands: LojaCommandsService) {}

  @Post('rotacionar')
  @CarriesCredential()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'rotacionarCodigo',
    summary: 'Troca o código de conta da loja: o código antigo e os tokens emitidos até agora deixam de valer.',
  })
  @ApiOkResponse({ type: CodigoRotacionadoResponse })
  async rotacionar(@Param('idLoja', idLojaPipe) idLoja: number): Promise<CodigoRotacionadoResponse> {
    const codigo = novoCodigo();
    const dataRotacao = new Date().toISOString();
    await this.commands.executar(idLoja, { acao: 'rotacionarCodigo', codigoHash: hashCodigo(codigo), agora: dataRotacao });
    return { ...(await this.commands.ler(idLoja)), codigo, dataRotacao };
  }
}
