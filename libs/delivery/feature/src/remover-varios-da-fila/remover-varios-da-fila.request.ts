import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, Matches } from 'class-validator';
import { UUID_PATTERN } from '@trilha/ids';

/** The most items one POST /fila/remover removes: as many as GET /fila/lista lists at once. */
export const MAX_REMOVER = 500;

export class RemoverVariosDaFilaRequest {
  @ApiProperty({
    type: 'array',
    // UUID_PATTERN, which reads either case, as a pattern without flags says it.
    items: { type: 'string', format: 'uuid', pattern: UUID_PATTERN.source.replace(/a-f/g, 'a-fA-F') },
    minItems: 1,
    maxItems: MAX_REMOVER,
    description: 'Os idDocumento dos itens, como GET /fila/lista os mostra.',
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_REMOVER)
  @Matches(UUID_PATTERN, { each: true, message: 'codigos deve ter só UUIDs: o idDocumento de cada item, como GET /fila/lista o mostra' })
  codigos: string[];
}

export class RemovidosDaFilaResponse {
  @ApiProperty({ type: [String], description: 'Os itens removidos agora, na ordem pedida.' }) removidos: string[];
  @ApiProperty({ type: [String], description: 'Os códigos sem item pendente na fila desta loja: desconhecidos, já removidos ou de outra loja.' }) naoEncontrados: string[];
}
