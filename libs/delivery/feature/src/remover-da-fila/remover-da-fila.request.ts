import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString } from 'class-validator';

export class RemoverDaFilaRequest {
  @ApiProperty({ description: 'O idDocumento do item, como GET /fila/lista o mostra.' })
  @IsString()
  @IsNotEmpty()
  codigo: string;
}
