import { ApiProperty } from '@nestjs/swagger';
import { CANAIS, DIRECOES, TIPOS_ATENDIMENTO } from '@trilha/contracts';

export class DadosClienteAtendimentoResponse {
  @ApiProperty({ example: 'Maria Silva' }) nome: string;
  @ApiProperty({ type: String, nullable: true, example: '+5511999990000' }) telefone: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'maria@example.com' }) email: string | null;
}

/** The answer of POST /atendimentos: the data of `atendimento.criado`. */
export class AtendimentoCriadoResponse {
  @ApiProperty({ description: 'UUIDv7 (em ordem de criação). Trate-o como texto opaco.' }) idAtendimento: string;
  @ApiProperty() idLoja: number;
  @ApiProperty({ enum: CANAIS }) canal: string;
  @ApiProperty({ enum: TIPOS_ATENDIMENTO }) tipo: string;
  @ApiProperty({ enum: ['aberto'] }) status: string;
  @ApiProperty({ type: DadosClienteAtendimentoResponse }) dadosCliente: DadosClienteAtendimentoResponse;
  @ApiProperty({ format: 'date-time', description: 'UTC, terminando em Z.' }) dataAbertura: string;
}

export class MensagemAtendimentoResponse {
  @ApiProperty({ description: 'UUIDv7 (em ordem de criação). Trate-o como texto opaco.' }) idMensagem: string;
  @ApiProperty({ enum: DIRECOES, description: '`entrada`: do cliente para a loja; `saida`: da loja ou de um agente para o cliente.' }) direcao: string;
  @ApiProperty() remetente: string;
  @ApiProperty() mensagem: string;
  @ApiProperty({ format: 'date-time', description: 'UTC, terminando em Z.' }) dataHora: string;
}

/** A conversation in a listing. */
export class AtendimentoResumidoResponse extends AtendimentoCriadoResponse {
  @ApiProperty({ enum: ['aberto', 'encerrado'] }) declare status: string;
  @ApiProperty({ type: String, nullable: true }) idPedido: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) dataEncerramento: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Resumo do encerramento: o informado ou, sem ele, um escrito pelo serviço a partir da conversa.' })
  resumo: string | null;
  @ApiProperty() totalMensagens: number;
}

/** A conversation with its messages in order. */
export class AtendimentoResponse extends AtendimentoResumidoResponse {
  @ApiProperty({ type: [MensagemAtendimentoResponse] }) mensagens: MensagemAtendimentoResponse[];
}

export class AtendimentosPaginaResponse {
  @ApiProperty() pagina: number;
  @ApiProperty() porPagina: number;
  @ApiProperty() total: number;
  @ApiProperty() totalPaginas: number;
  @ApiProperty({ type: [AtendimentoResumidoResponse] }) atendimentos: AtendimentoResumidoResponse[];
}
