import { ApiProperty } from '@nestjs/swagger';
import { ORIGENS_CHAVE } from '@trilha/contracts';
import { TIPOS_PEDIDO } from '@trilha/tracking-domain';

/** An event of a volume in the tracking record (docs/API.md section 4). */
export class EventoRastreioResponse {
  @ApiProperty({ maxLength: 40, pattern: '^[0-9a-f]{40}$', description: 'Identificador do evento; o valor para o endpoint de correção.' }) hash: string;
  @ApiProperty({ enum: TIPOS_PEDIDO, maxLength: 7 }) tipo: string;
  @ApiProperty({ maxLength: 40, example: '2026-11-22T10:15:00-03:00', description: 'ISO 8601 com fuso.' }) dataHora: string;
  @ApiProperty({ maxLength: 500 }) descricao: string;
  @ApiProperty({ maxLength: 10, description: 'Vazia quando não informada.' }) sigla: string;
  @ApiProperty({ description: 'false: evento interno, mostrado só à loja.' }) visivelClienteFinal: boolean;
  @ApiProperty({ enum: ['api', 'mcp'], maxLength: 20, description: 'Por onde o evento foi registrado.' }) origem: string;
}

/** A volume of the order in the tracking record (docs/API.md section 4). */
export class VolumeRastreioResponse {
  @ApiProperty({ maxLength: 100 }) chaveEnvio: string;
  @ApiProperty({ enum: ORIGENS_CHAVE, maxLength: 20 }) origemChave: string;
  @ApiProperty({ type: String, maxLength: 100, nullable: true }) codigoRastreio: string | null;
  @ApiProperty({ type: String, maxLength: 44, nullable: true }) chaveNFe: string | null;
  @ApiProperty({ type: String, maxLength: 255, nullable: true, description: 'Rótulo na página pública.' }) rotulo: string | null;
  @ApiProperty({ maxLength: 50, description: 'Vazio quando não informado.' }) codigoEnvio: string;
  @ApiProperty({ enum: TIPOS_PEDIDO, maxLength: 7 }) tipoPedido: string;
  @ApiProperty({ enum: ['ativo', 'encerrado'], maxLength: 10 }) status: string;
  @ApiProperty({ description: 'Eventos do volume, internos incluídos.' }) totalEventos: number;
  @ApiProperty({ type: [EventoRastreioResponse], description: 'Em ordem cronológica crescente.' }) eventos: EventoRastreioResponse[];
}

/** The tracking record of an order (docs/API.md section 4). */
export class RegistroRastreioResponse {
  @ApiProperty({ maxLength: 32 }) idPedido: string;
  @ApiProperty({ maxLength: 100 }) numeroPedido: string;
  @ApiProperty({ type: String, maxLength: 100, nullable: true }) pedidoCanal: string | null;
  @ApiProperty({ maxLength: 255, description: 'Página pública de rastreio, a mesma para todos os volumes.' }) linkRastreio: string;
  @ApiProperty() totalVolumes: number;
  @ApiProperty({ type: [VolumeRastreioResponse] }) volumes: VolumeRastreioResponse[];
}
