import { Controller, Delete, HttpCode, NotFoundException, Query } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { ApiBearerAuth, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import type { DataSource } from 'typeorm';
import { IdLoja } from '@trilha/http';
import { ehUuid } from '@trilha/ids';
import { RemoverDaFilaRequest } from './remover-da-fila.request';

export class RemovidoDaFilaResponse {
  @ApiProperty({ format: 'uuid' }) idDocumento: string;
  @ApiProperty({ enum: [true] }) removido: true;
}

/** DELETE /fila/delete?codigo= (docs/API.md section 8): removes one processed item of the store's queue. */
@ApiTags('Fila')
@ApiBearerAuth()
@Controller('fila')
export class RemoverDaFilaHttpController {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  @Delete('delete')
  @HttpCode(200)
  @ApiOperation({ operationId: 'removerEventoFila', summary: 'Remove da fila um evento já processado, para não processá-lo de novo.' })
  @ApiOkResponse({ type: RemovidoDaFilaResponse })
  @ApiNotFoundResponse({ description: 'Nenhum evento com este código na fila da loja.' })
  async remover(@IdLoja() idLoja: number, @Query() query: RemoverDaFilaRequest): Promise<RemovidoDaFilaResponse> {
    // TypeORM answers an UPDATE with [rows, count].
    const [, removidos]: [unknown[], number] = ehUuid(query.codigo)
      ? await this.dataSource.query(`UPDATE fila SET removido_em = now() WHERE id_documento = $1 AND id_loja = $2 AND removido_em IS NULL`, [query.codigo, idLoja])
      : [[], 0];
    if (removidos === 0) throw new NotFoundException('Evento não encontrado na fila desta loja (ou já removido).');
    return { idDocumento: query.codigo, removido: true };
  }
}
