import { ApiProperty } from '@nestjs/swagger';

/** The event of a test push (docs/API.md section 7): not a notification a store subscribes to, so not in NOTIFICATIONS. */
export const EVENTO_TESTE = 'webhook.teste';

export class TesteResponse {
  @ApiProperty({ enum: [EVENTO_TESTE] }) evento: typeof EVENTO_TESTE;
  @ApiProperty({ type: 'integer', nullable: true, description: 'Status HTTP da resposta do receptor; null quando não houve resposta.' }) statusHttp: number | null;
  @ApiProperty() duracaoMs: number;
  @ApiProperty({ type: 'string', nullable: true, description: 'Por que a chamada falhou; null quando a resposta foi 200.' }) erro: string | null;
  @ApiProperty({ type: 'string', nullable: true, maxLength: 2048, description: 'Os primeiros 2 KB do corpo da resposta do receptor, como texto; null quando ele não respondeu.' }) resposta: string | null;
}
