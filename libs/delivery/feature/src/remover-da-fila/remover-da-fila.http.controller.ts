import { Controller, Delete, HttpCode, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { IdLoja, PortalSession } from '@trilha/http';
import { RemoverDaFilaHandler } from './remover-da-fila.handler';
import { RemoverDaFilaRequest } from './remover-da-fila.request';

export class RemovidoDaFilaResponse {
  @ApiProperty({ format: 'uuid' }) idDocumento: string;
  @ApiProperty({ enum: [true] }) removido: true;
}

/** DELETE /fila/delete?codigo= (docs/API.md section 8). */
@ApiTags('Fila')
@PortalSession()
@ApiBearerAuth()
@Controller('fila')
export class RemoverDaFilaHttpController {
  constructor(private readonly handler: RemoverDaFilaHandler) {}

  @Delete('delete')
  @HttpCode(200)
  @ApiOperation({ operationId: 'removerEventoFila', summary: 'Remove da fila um evento já processado, para não processá-lo de novo.' })
  @ApiOkResponse({ type: RemovidoDaFilaResponse })
  @ApiNotFoundResponse({ description: 'Nenhum evento com este código na fila da loja.' })
  async remover(@IdLoja() idLoja: number, @Query() query: RemoverDaFilaRequest): Promise<RemovidoDaFilaResponse> {
    await this.handler.execute(idLoja, query.codigo);
    return { idDocumento: query.codigo, removido: true };
  }
}
