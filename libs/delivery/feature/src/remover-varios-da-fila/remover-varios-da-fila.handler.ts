import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { RemovidosDaFilaResponse } from './remover-varios-da-fila.request';

/** POST /fila/remover: marks pending items of the store's queue removed, in one statement; the others are named back. */
@Injectable()
export class RemoverVariosDaFilaHandler {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async execute(idLoja: number, codigos: string[]): Promise<RemovidosDaFilaResponse> {
    // The same code in any case, once (the validation accepts upper-case hex).
    const pedidos = [...new Set(codigos.map((codigo) => codigo.toLowerCase()))];
    // TypeORM answers an UPDATE … RETURNING with [rows, count].
    const [rows]: [{ id_documento: string }[], number] = await this.dataSource.query(
      `UPDATE fila SET removido_em = now() WHERE id_loja = $1 AND id_documento = ANY($2::uuid[]) AND removido_em IS NULL RETURNING id_documento`,
      [idLoja, pedidos],
    );
    const removidos = new Set(rows.map((row) => row.id_documento));
    return { removidos: pedidos.filter((codigo) => removidos.has(codigo)), naoEncontrados: pedidos.filter((codigo) => !removidos.has(codigo)) };
  }
}
