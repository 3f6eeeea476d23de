import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { CAPACIDADE_PORTAL_PADRAO, CAPACIDADES_PORTAL, DURACAO_SESSAO_PORTAL, type CapacidadePortal } from '@trilha/lojas-domain';

export class CriarLinkPortalRequest {
  @ApiPropertyOptional({ enum: CAPACIDADES_PORTAL, default: CAPACIDADE_PORTAL_PADRAO, description: '`ver` só consulta; `gerenciar` também altera.' })
  @IsOptional()
  @IsIn(CAPACIDADES_PORTAL)
  capacidade?: CapacidadePortal;

  @ApiPropertyOptional({
    minimum: DURACAO_SESSAO_PORTAL.minima,
    maximum: DURACAO_SESSAO_PORTAL.maxima,
    default: DURACAO_SESSAO_PORTAL.padrao,
    description: 'Segundos que dura a sessão aberta pelo link: de 5 minutos a 7 dias.',
  })
  @IsOptional()
  @IsInt()
  @Min(DURACAO_SESSAO_PORTAL.minima)
  @Max(DURACAO_SESSAO_PORTAL.maxima)
  duracao?: number;
}
