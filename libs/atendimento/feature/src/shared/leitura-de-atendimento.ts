import { Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { AtendimentoResponse, AtendimentoResumidoResponse, MensagemAtendimentoResponse } from './atendimento.response';

/** A row of `atendimentos` with its message count (`COLUNAS_ATENDIMENTO`). */
export interface AtendimentoRow {
  id_atendimento: string;
  id_loja: number;
  canal: string;
  tipo: string;
  status: string;
  dados_cliente: { nome: string; telefone: string | null; email: string | null };
  id_pedido: string | null;
  data_abertura: Date;
  data_encerramento: Date | null;
  resumo: string | null;
  total_mensagens: number;
}

interface MensagemRow {
  id_mensagem: string;
  direcao: string;
  remetente: string;
  mensagem: string;
  data_hora: Date;
}

/** The columns of a conversation read from `atendimentos a`, with its message count. */
export const COLUNAS_ATENDIMENTO = `a.*, (SELECT count(*)::int FROM atendimento_mensagens m WHERE m.id_atendimento = a.id_atendimento) AS total_mensagens`;

export function atendimentoResumido(row: AtendimentoRow): AtendimentoResumidoResponse {
  return {
    idAtendimento: row.id_atendimento,
    idLoja: row.id_loja,
    canal: row.canal,
    tipo: row.tipo,
    status: row.status,
    dadosCliente: row.dados_cliente,
    idPedido: row.id_pedido,
    dataAbertura: row.data_abertura.toISOString(),
    dataEncerramento: row.data_encerramento?.toISOString() ?? null,
    resumo: row.resumo,
    totalMensagens: row.total_mensagens,
  };
}

function mensagemResponse(row: MensagemRow): MensagemAtendimentoResponse {
  return { idMensagem: row.id_mensagem, direcao: row.direcao, remetente: row.remetente, mensagem: row.mensagem, dataHora: row.data_hora.toISOString() };
}

/** A conversation of the caller's store, with its messages in order, from the read model. */
@Injectable()
export class LeituraDeAtendimento {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async ler(idLoja: number, idAtendimento: string): Promise<AtendimentoResponse> {
    const [row] = await this.dataSource.query<AtendimentoRow[]>(`SELECT ${COLUNAS_ATENDIMENTO} FROM atendimentos a WHERE id_atendimento = $1 AND id_loja = $2`, [idAtendimento, idLoja]);
    if (!row) throw new NotFoundException('Atendimento não encontrado.');
    const mensagens = await this.dataSource.query<MensagemRow[]>(
      `SELECT id_mensagem, direcao, remetente, mensagem, data_hora FROM atendimento_mensagens WHERE id_atendimento = $1 ORDER BY posicao`,
      [idAtendimento],
    );
    return { ...atendimentoResumido(row), mensagens: mensagens.map(mensagemResponse) };
  }
}
