import { ApiProperty } from '@nestjs/swagger';
import { CAPACIDADES_PORTAL, DURACAO_SESSAO_PORTAL, type CapacidadePortal } from '@trilha/lojas-domain';

export class LinkPortalResponse {
  @ApiProperty({
    description: 'Abre o portal da loja uma vez, em até 15 minutos. O segredo vai no fragmento (depois de #), que o navegador não envia a nenhum servidor.',
    example: 'https://api.trilha.example.com/portal/#8v3Qk1x…',
  })
  url: string;

  @ApiProperty({ format: 'date-time', description: 'Até quando o link pode ser aberto (15 minutos).' })
  expiraEm: string;

  @ApiProperty({ enum: CAPACIDADES_PORTAL, description: '`ver` só consulta; `gerenciar` também altera (webhook, segredo, entregas, fila).' })
  capacidade: CapacidadePortal;

  @ApiProperty({ minimum: DURACAO_SESSAO_PORTAL.minima, maximum: DURACAO_SESSAO_PORTAL.maxima, description: 'Quantos segundos dura a sessão aberta pelo link.' })
  duracao: number;
}

export class SessaoPortalResponse {
  @ApiProperty({ example: 42 }) idLoja: number;
  @ApiProperty({ example: 'Loja Exemplo' }) nomeLoja: string;
  @ApiProperty({ enum: CAPACIDADES_PORTAL }) capacidade: CapacidadePortal;
  @ApiProperty({ format: 'date-time', description: 'Quando a sessão termina.' }) expiraEm: string;
}

export class SessoesEncerradasResponse {
  @ApiProperty({ minimum: 0, description: 'Quantas sessões abertas do portal foram encerradas.' }) encerradas: number;
}
