import { ApiProperty } from '@nestjs/swagger';
import { DataHora } from '@trilha/http';

/** How far back a recovery may reach. */
export const RECUPERACAO_MAX_DIAS = 30;

export class RecuperarEntregasRequest {
  @DataHora({
    exampleDaysAgo: 1,
    description: `Reenviar as entregas que falharam desde este instante: no passado, até ${RECUPERACAO_MAX_DIAS} dias atrás.`,
  })
  desde: string;
}

export class RecuperacaoResponse {
  @ApiProperty({ minimum: 0, description: 'Quantas entregas serão reenviadas, uma de cada vez, na ordem em que os eventos ocorreram.' })
  quantidade: number;
}
