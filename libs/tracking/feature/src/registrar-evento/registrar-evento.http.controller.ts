import { Body, Controller, Post, Res } from '@nestjs/common';
import { ApiConflictResponse, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Idempotente } from '@trilha/event-store';
import type { FastifyReply } from 'fastify';
import { CarriesCredential, IdLoja, Origem } from '@trilha/http';
import { RegistrarEventoHandler } from './registrar-evento.handler';
import { RegistrarEventoRequest } from './registrar-evento.request';
import { EventoRegistradoResponse } from './registrar-evento.response';

@ApiTags('Rastreio')
@Controller('pedidoRastreio/evento')
export class RegistrarEventoHttpController {
  constructor(private readonly handler: RegistrarEventoHandler) {}

  @Post()
  @Idempotente()
  @CarriesCredential()
  @ApiOperation({
    operationId: 'registrarEventoRastreio',
    summary: 'Registra um evento de rastreio de um volume; cria o pedido e o volume no primeiro uso.',
    description:
      'chaveEnvio é o primeiro presente de codigoRastreio, chaveNFe e identificador (um volume já conhecido por qualquer dessas chaves mantém a sua). ' +
      'Repetir o mesmo evento (mesmo volume, dataHora, descricao e sigla) responde 200 com o mesmo hash e não o duplica.',
  })
  @ApiCreatedResponse({ type: EventoRegistradoResponse, description: 'Evento registrado.' })
  @ApiOkResponse({ type: EventoRegistradoResponse, description: 'O mesmo evento já estava registrado.' })
  @ApiConflictResponse({ description: 'O volume está encerrado.' })
  async registrar(
    @IdLoja() idLoja: number,
    @Origem() origem: string,
    @Body() body: RegistrarEventoRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<EventoRegistradoResponse> {
    const { novo, resposta } = await this.handler.execute(idLoja, body, origem);
    reply.status(novo ? 201 : 200);
    return resposta;
  }
}
