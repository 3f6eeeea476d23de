import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { STATUS_ENTREGA, type StatusEntrega } from '@trilha/delivery-domain';

export class ListarEntregasRequest {
  @ApiProperty({ required: false, enum: STATUS_ENTREGA })
  @IsOptional()
  @IsIn(STATUS_ENTREGA)
  status?: StatusEntrega;

  @ApiProperty({ required: false, minimum: 1, default: 1 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  pagina: number = 1;

  @ApiProperty({ required: false, minimum: 1, maximum: 100, default: 20 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  porPagina: number = 20;
}
