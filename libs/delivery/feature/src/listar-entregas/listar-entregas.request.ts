import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { Paginacao } from '@trilha/http';
import { STATUS_ENTREGA, type StatusEntrega } from '@trilha/delivery-domain';

export class ListarEntregasRequest extends Paginacao {
  @ApiProperty({ required: false, enum: STATUS_ENTREGA })
  @IsOptional()
  @IsIn(STATUS_ENTREGA)
  status?: StatusEntrega;
}
