import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { idAssistenteDeRastreio, type Habilidade } from '@trilha/atendimento-domain';
import { AgenteCommands, type AgentesResponse } from '../shared';

interface AgenteRow {
  id_agente: string;
  nome: string;
  descricao: string;
  habilidades: Habilidade[];
  ativo: boolean;
}

/** The store's agents in the order they were created, the built-in one first (created here if the store has none yet). */
@Injectable()
export class ListarAgentesHandler {
  constructor(
    private readonly commands: AgenteCommands,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async execute(idLoja: number): Promise<AgentesResponse> {
    const ler = () =>
      this.dataSource.query<AgenteRow[]>(
        `SELECT id_agente, nome, descricao, habilidades, ativo, versao FROM agentes WHERE id_loja = $1 ORDER BY criado_em, id_agente`,
        [idLoja],
      );
    let rows = await ler();
    if (!rows.some((row) => row.id_agente === idAssistenteDeRastreio(idLoja))) rows = await this.commands.criarAssistenteDeRastreioELer(idLoja, ler);
    return {
      agentes: rows.map((row) => ({ idAgente: row.id_agente, nome: row.nome, descricao: row.descricao, habilidades: row.habilidades, ativo: row.ativo })),
    };
  }
}
