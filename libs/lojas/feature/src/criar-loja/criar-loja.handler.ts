import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { hashCodigo, novoCodigo } from '../codigo-da-conta';
import { LojaCommandsService } from '../loja-commands.service';
import type { LojaCriadaResponse } from '../loja.response';

@Injectable()
export class CriarLojaHandler {
  constructor(
    private readonly commands: LojaCommandsService,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async execute(nome: string): Promise<LojaCriadaResponse> {
    const [{ id }] = await this.dataSource.query(`SELECT nextval('loja_id_seq')::int AS id`);
    const codigo = novoCodigo();
    const agora = new Date().toISOString();
    await this.commands.executar(id, { acao: 'criar', idLoja: id, nome, codigoHash: hashCodigo(codigo), agora });
    return { idLoja: id, nome, codigo, ativa: true, criadaEm: agora };
  }
}
