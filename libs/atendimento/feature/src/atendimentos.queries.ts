import { Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { AtendimentoResponse, AtendimentoResumidoResponse, AtendimentosPaginaResponse, MensagemAtendimentoResponse } from './atendimento.response';

interface AtendimentoRow {
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

const COLUNAS = `a.*, (SELECT count(*)::int FROM atendimento_mensagens m WHERE m.id_atendimento = a.id_atendimento) AS total_mensagens`;

function resumido(row: AtendimentoRow): AtendimentoResumidoResponse {
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

/** Reads of the conversations' read model, always within the caller's store. */
@Injectable()
export class AtendimentosQueries {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async ler(idLoja: number, idAtendimento: string): Promise<AtendimentoResponse> {
    const [row] = await this.dataSource.query<AtendimentoRow[]>(`SELECT ${COLUNAS} FROM atendimentos a WHERE id_atendimento = $1 AND id_loja = $2`, [idAtendimento, idLoja]);
    if (!row) throw new NotFoundException('Atendimento não encontrado.');
    const mensagens = await this.dataSource.query<MensagemRow[]>(
      `SELECT id_mensagem, direcao, remetente, mensagem, data_hora FROM atendimento_mensagens WHERE id_atendimento = $1 ORDER BY posicao`,
      [idAtendimento],
    );
    return { ...resumido(row), mensagens: mensagens.map(mensagemResponse) };
  }

  async listar(idLoja: number, filtro: { status?: string; pagina: number; porPagina: number }): Promise<AtendimentosPaginaResponse> {
    const { status, pagina, porPagina } = filtro;
    const params: unknown[] = status ? [idLoja, status] : [idLoja];
    const where = status ? 'id_loja = $1 AND status = $2' : 'id_loja = $1';
    const [{ total }] = await this.dataSource.query(`SELECT count(*)::int AS total FROM atendimentos WHERE ${where}`, params);
    const rows = await this.dataSource.query<AtendimentoRow[]>(
      `SELECT ${COLUNAS} FROM atendimentos a WHERE ${where} ORDER BY data_abertura DESC, id_atendimento LIMIT ${porPagina} OFFSET ${(pagina - 1) * porPagina}`,
      params,
    );
    return { pagina, porPagina, total, totalPaginas: Math.ceil(total / porPagina), atendimentos: rows.map(resumido) };
  }
}
