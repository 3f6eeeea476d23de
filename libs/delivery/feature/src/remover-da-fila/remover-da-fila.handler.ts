import { Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { ehUuid } from '@trilha/ids';

/** DELETE /fila/delete?codigo= (docs/API.md section 8): marks one pending item of the store's queue removed. */
@Injectable()
export class RemoverDaFilaHandler {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async execute(idLoja: number, codigo: string): Promise<void> {
    // TypeORM answers an UPDATE with [rows, count].
    const [, removidos]: [unknown[], number] = ehUuid(codigo)
      ? await this.dataSource.query(`UPDATE fila SET removido_em = now() WHERE id_documento = $1 AND id_loja = $2 AND removido_em IS NULL`, [codigo, idLoja])
      : [[], 0];
    if (removidos === 0) throw new NotFoundException('Evento não encontrado na fila desta loja (ou já removido).');
  }
}
