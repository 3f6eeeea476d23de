import { ApiProperty } from '@nestjs/swagger';

export class LojaResponse {
  @ApiProperty({ example: 42 }) idLoja: number;
  @ApiProperty({ example: 'Loja Exemplo' }) nome: string;
  @ApiProperty() ativa: boolean;
  @ApiProperty({ format: 'date-time' }) criadaEm: string;
}

export class LojaCriadaResponse extends LojaResponse {
  @ApiProperty({ description: 'Código da conta: mostrado só aqui; troque-o por tokens em GET /autenticacao/{codigo}.' })
  codigo: string;
}

export class CodigoRotacionadoResponse extends LojaCriadaResponse {
  @ApiProperty({ format: 'date-time', description: 'Tokens emitidos até este instante estão revogados.' }) dataRotacao: string;
}

export class AplicativoRemovidoResponse {
  @ApiProperty() idLoja: number;
  @ApiProperty({ format: 'date-time' }) dataRemocao: string;
}
