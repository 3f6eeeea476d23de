import { ApiProperty } from '@nestjs/swagger';

export class ItemFilaResponse {
  @ApiProperty({ format: 'uuid', description: 'O `codigo` a passar a DELETE /fila/delete.' }) idDocumento: string;
  @ApiProperty({ example: 'atendimento.criado' }) evento: string;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'Os dados do evento, como no webhook.' }) data: object;
  @ApiProperty({ format: 'date-time' }) dataCriacao: string;
  @ApiProperty({ description: 'true quando o evento foi para a fila depois de esgotadas as tentativas do webhook.' }) entregaFalhou: boolean;
}

export class FilaResponse {
  @ApiProperty({ description: 'Itens pendentes na fila (todos, não só os listados).' }) total: number;
  @ApiProperty({ type: [ItemFilaResponse], description: 'Os mais antigos primeiro.' }) eventos: ItemFilaResponse[];
}
