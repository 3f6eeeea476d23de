import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';

/**
 * `pagina` and `porPagina` of every paginated list (docs/API.md: `/pedidos`, and the lists
 * "paginated as /pedidos"): page ≥ 1, 1–100 per page, 20 by default; outside those, a 400.
 * A list's query class extends it with its own filters.
 */
export class Paginacao {
  @ApiProperty({ required: false, type: 'integer', default: 1, minimum: 1 })
  @Type(() => Number)
  @IsInt({ message: 'pagina deve ser um número inteiro' })
  @Min(1, { message: 'pagina deve ser 1 ou mais' })
  @Max(1_000_000, { message: 'pagina deve ser no máximo 1000000' })
  pagina: number = 1;

  @ApiProperty({ required: false, type: 'integer', default: 20, minimum: 1, maximum: 100 })
  @Type(() => Number)
  @IsInt({ message: 'porPagina deve ser um número inteiro' })
  @Min(1, { message: 'porPagina deve estar entre 1 e 100' })
  @Max(100, { message: 'porPagina deve estar entre 1 e 100' })
  porPagina: number = 20;
}
