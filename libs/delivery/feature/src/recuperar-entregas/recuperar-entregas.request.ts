import { ApiProperty } from '@nestjs/swagger';
import { IsISO8601 } from 'class-validator';

/** How far back a recovery may reach. */
export const RECUPERACAO_MAX_DIAS = 30;

export class RecuperarEntregasRequest {
  @ApiProperty({
    format: 'date-time',
    example: '2026-03-01T12:00:00Z',
    description: `Reenviar as entregas que falharam de eventos ocorridos desde este instante: no passado, até ${RECUPERACAO_MAX_DIAS} dias atrás.`,
  })
  @IsISO8601({ strict: true })
  desde: string;
}

export class RecuperacaoResponse {
  @ApiProperty({ minimum: 0, description: 'Quantas entregas serão reenviadas, uma de cada vez, na ordem em que os eventos ocorreram.' })
  quantidade: number;
}
