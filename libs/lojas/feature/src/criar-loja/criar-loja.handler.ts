import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { createHash, randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { LojaCommandsService } from '../loja-commands.service';
import type { LojaCriadaResponse } from '../loja.response';

/** SHA-256 of an account code: the read model keeps only this, never the code. */
export const hashCodigo = (codigo: string): string => createHash('sha256').update(codigo).digest('hex');

@Injectable()
export class CriarLojaHandler {
  constructor(
    private readonly commands: LojaCommandsService,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async execute(nome: string): Promise<LojaCriadaResponse> {
    const [{ id }] = await this.dataSource.query(`SELECT nextval('loja_id_seq')::int AS id`);
    // 192 random bits (docs/API.md section 1); an unguessable account code needs at least 128.
    const codigo = randomBytes(24).toString('base64url');
    const agora = new Date().toISOString();
    await this.commands.executar(id, { tipo: 'criar', idLoja: id, nome, codigoHash: hashCodigo(codigo), agora });
    return { idLoja: id, nome, codigo, ativa: true, criadaEm: agora };
  }
}
