import { ApiProperty } from '@nestjs/swagger';
import { ORIGENS_CHAVE } from '@trilha/contracts';

export class EventoRegistradoResponse {
  @ApiProperty({ maxLength: 32 }) idPedido: string;
  @ApiProperty({ maxLength: 100 }) numeroPedido: string;
  @ApiProperty({ maxLength: 100, description: 'Chave estável do volume.' }) chaveEnvio: string;
  @ApiProperty({ enum: ORIGENS_CHAVE }) origemChave: string;
  @ApiProperty({ pattern: '^[0-9a-f]{40}$', description: 'Identificador do evento; use-o para corrigi-lo.' }) hash: string;
  @ApiProperty({ maxLength: 255 }) linkRastreio: string;
}
