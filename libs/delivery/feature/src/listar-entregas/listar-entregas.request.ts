import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { DataHora, Paginacao } from '@trilha/http';
import { EVENTOS_NOTIFICACAO, STATUS_ENTREGA, type EventoNotificacao, type StatusEntrega } from '@trilha/delivery-domain';

export class ListarEntregasRequest extends Paginacao {
  @ApiProperty({ required: false, enum: STATUS_ENTREGA })
  @IsOptional()
  @IsIn(STATUS_ENTREGA)
  status?: StatusEntrega;

  @ApiProperty({ required: false, enum: EVENTOS_NOTIFICACAO, description: 'Só as entregas deste tipo de evento.' })
  @IsOptional()
  @IsIn(EVENTOS_NOTIFICACAO)
  evento?: EventoNotificacao;

  @DataHora({ required: false, description: 'Só as entregas de eventos ocorridos a partir deste instante (inclusive).' })
  @IsOptional()
  desde?: string;

  @DataHora({ required: false, description: 'Só as entregas de eventos ocorridos até este instante (inclusive).' })
  @IsOptional()
  ate?: string;

  @ApiProperty({ required: false, maxLength: 64, description: 'O `proximoCursor` de uma resposta anterior, com os mesmos filtros: a página seguinte. Não vai com `pagina`.' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  cursor?: string;
}
