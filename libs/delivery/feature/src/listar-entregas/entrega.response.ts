import { ApiProperty } from '@nestjs/swagger';
import { STATUS_ENTREGA, type StatusEntrega } from '@trilha/delivery-domain';

export class TentativaResponse {
  @ApiProperty({ example: 1 }) numero: number;
  @ApiProperty({ format: 'date-time' }) dataHora: string;
  @ApiProperty({ type: 'integer', nullable: true, description: 'Status HTTP da resposta; null quando não houve resposta.' }) statusHttp: number | null;
  @ApiProperty() duracaoMs: number;
  @ApiProperty({ type: 'string', nullable: true, description: 'Por que a tentativa falhou; null quando a resposta foi 200.' }) erro: string | null;
}

const CABECALHOS = { type: 'object', additionalProperties: { type: 'string' }, nullable: true } as const;

/** An attempt in a delivery's detail: what was sent and what came back. */
export class TentativaDetalhadaResponse extends TentativaResponse {
  @ApiProperty({ type: 'string', nullable: true, description: 'Para onde foi enviada; null nas tentativas registradas antes de a API guardá-la.' }) url: string | null;
  @ApiProperty({
    ...CABECALHOS,
    description: 'Os cabeçalhos da requisição como enviados, com webhook-id, webhook-timestamp e webhook-signature; null quando nada foi enviado (endereço recusado ou não encontrado).',
  })
  cabecalhos: Record<string, string> | null;
  @ApiProperty({ type: 'string', nullable: true, maxLength: 2048, description: 'Os primeiros 2 KB do corpo da resposta do receptor, como texto; null quando ele não respondeu.' }) resposta: string | null;
}

/** What the log and the detail both show of a delivery. */
class Entrega {
  @ApiProperty({ format: 'uuid' }) idEntrega: string;
  @ApiProperty({ format: 'uuid', description: 'Id do evento: o cabeçalho webhook-id de cada tentativa.' }) idEvento: string;
  @ApiProperty({ example: 'atendimento.criado' }) evento: string;
  @ApiProperty({ enum: STATUS_ENTREGA }) status: StatusEntrega;
  @ApiProperty({ format: 'date-time', description: 'Quando o evento ocorreu.' }) ocorridoEm: string;
  @ApiProperty({
    type: 'string',
    format: 'date-time',
    nullable: true,
    description: 'Quando a próxima tentativa será feita; null quando nenhuma está agendada (a entrega terminou, uma tentativa está em andamento, ou ela espera a entrega do evento anterior da loja).',
  })
  proximaTentativa: string | null;
}

export class EntregaResponse extends Entrega {
  @ApiProperty({ type: [TentativaResponse] }) tentativas: TentativaResponse[];
}

export class EntregasResponse {
  @ApiProperty() pagina: number;
  @ApiProperty() porPagina: number;
  @ApiProperty() total: number;
  @ApiProperty() totalPaginas: number;
  @ApiProperty({ type: [EntregaResponse] }) entregas: EntregaResponse[];
  @ApiProperty({ type: 'string', nullable: true, description: 'Passe-o em `cursor` para ler a página seguinte (entregas mais antigas); null na última.' }) proximoCursor: string | null;
}

/** The request a delivery's attempts send. */
export class RequisicaoResponse {
  @ApiProperty({ type: 'string', nullable: true, description: 'A URL da última tentativa; null antes da primeira.' }) url: string | null;
  @ApiProperty({ ...CABECALHOS, description: 'Os cabeçalhos da última tentativa como enviados, assinatura incluída; null antes da primeira.' }) cabecalhos: Record<string, string> | null;
  @ApiProperty({ description: 'O corpo JSON, como texto: o mesmo em todas as tentativas.' }) corpo: string;
}

export class EntregaDetalhadaResponse extends Entrega {
  @ApiProperty({ type: [TentativaDetalhadaResponse] }) tentativas: TentativaDetalhadaResponse[];
  @ApiProperty({ type: RequisicaoResponse }) requisicao: RequisicaoResponse;
}
