import { ApiProperty } from '@nestjs/swagger';
import { HABILIDADES } from '@trilha/atendimento-domain';

export class AgenteResponse {
  @ApiProperty({ description: 'UUIDv7 para os agentes criados pela loja; `rastreio-<idLoja>` para o Assistente de rastreio embutido. Trate-o como texto opaco.' })
  idAgente: string;
  @ApiProperty() nome: string;
  @ApiProperty() descricao: string;
  @ApiProperty({ enum: HABILIDADES, isArray: true, description: '`rastreio`: responde com o rastreamento dos pedidos da loja; `faq`: com as perguntas frequentes do agente.' })
  habilidades: string[];
  @ApiProperty() ativo: boolean;
}

export class AgentesResponse {
  @ApiProperty({ type: [AgenteResponse] }) agentes: AgenteResponse[];
}
