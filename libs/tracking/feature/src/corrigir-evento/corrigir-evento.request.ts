import { ApiProperty } from '@nestjs/swagger';
import { IsBoolean, IsOptional, IsString, MaxLength } from 'class-validator';
import { ApiSchemaExtras, DataHora } from '@trilha/http';
import { TextoOpcional } from '../validation';

/** PUT /pedidoRastreio/evento/{hash}: the values to correct (at least one); absent ones stay as they are. */
@ApiSchemaExtras({ minProperties: 1 })
export class CorrigirEventoRequest {
  @IsOptional()
  @DataHora({ required: false })
  dataHora?: string;

  @TextoOpcional(500) descricao?: string;

  @ApiProperty({ type: String, maxLength: 10, required: false })
  @IsOptional()
  @IsString({ message: 'sigla deve ser um texto' })
  @MaxLength(10, { message: 'sigla deve ter no máximo 10 caracteres' })
  sigla?: string;

  @ApiProperty({ required: false })
  @IsOptional()
  @IsBoolean({ message: 'visivelClienteFinal deve ser true ou false' })
  visivelClienteFinal?: boolean;
}
