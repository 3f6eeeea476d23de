import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { Paginacao } from '@trilha/http';

export class ListarAtendimentosQuery extends Paginacao {
  @ApiPropertyOptional({ enum: ['aberto', 'encerrado'] })
  @IsOptional()
  @IsIn(['aberto', 'encerrado'])
  status?: 'aberto' | 'encerrado';
}
