import { ApiProperty } from '@nestjs/swagger';
import { STATUS_ENTREGA, type StatusEntrega } from '@trilha/delivery-domain';

export class TentativaResponse {
  @ApiProperty({ example: 1 }) numero: number;
  @ApiProperty({ format: 'date-time' }) dataHora: string;
  @ApiProperty({ type: 'integer', nullable: true, description: 'Status HTTP da resposta; null quando não houve resposta.' }) statusHttp: number | null;
  @ApiProperty() duracaoMs: number;
  @ApiProperty({ type: 'string', nullable: true, description: 'Por que a tentativa falhou; null quando a resposta foi 200.' }) erro: string | null;
}

export class EntregaResponse {
  @ApiProperty({ format: 'uuid' }) idEntrega: string;
  @ApiProperty({ format: 'uuid', description: 'Id do evento: o cabeçalho webhook-id de cada tentativa.' }) idEvento: string;
  @ApiProperty({ example: 'atendimento.criado' }) evento: string;
  @ApiProperty({ enum: STATUS_ENTREGA }) status: StatusEntrega;
  @ApiProperty({ type: [TentativaResponse] }) tentativas: TentativaResponse[];
}

export class EntregasResponse {
  @ApiProperty() pagina: number;
  @ApiProperty() porPagina: number;
  @ApiProperty() total: number;
  @ApiProperty() totalPaginas: number;
  @ApiProperty({ type: [EntregaResponse] }) entregas: EntregaResponse[];
}
