import { Module } from '@nestjs/common';
import { AbrirAtendimentoHttpController } from './abrir-atendimento/abrir-atendimento.http.controller';
import { AgentesService } from './agentes.service';
import { AssistenteDeRastreioMessageController } from './assistente-de-rastreio/assistente-de-rastreio.message.controller';
import { AtendimentoCommandsService } from './atendimento-commands.service';
import { AtendimentosQueries } from './atendimentos.queries';
import { ConsultarAtendimentoHttpController } from './consultar-atendimento/consultar-atendimento.http.controller';
import { ConversarHandler } from './conversar-com-agente/conversar.handler';
import { ConversarHttpController } from './conversar-com-agente/conversar.http.controller';
import { CriarAgenteHttpController } from './criar-agente/criar-agente.http.controller';
import { EncerrarAtendimentoHttpController } from './encerrar-atendimento/encerrar-atendimento.http.controller';
import { ListarAgentesHttpController } from './listar-agentes/listar-agentes.http.controller';
import { ListarAtendimentosHttpController } from './listar-atendimentos/listar-atendimentos.http.controller';
import { RastreioPedidos } from './rastreio-pedidos/rastreio-pedidos';
import { RastreioPedidosMessageController } from './rastreio-pedidos/rastreio-pedidos.message.controller';
import { RegistrarMensagemHttpController } from './registrar-mensagem/registrar-mensagem.http.controller';

const providers = [AtendimentoCommandsService, AtendimentosQueries, AgentesService, RastreioPedidos, ConversarHandler];

/**
 * The public routes of support conversations and virtual agents (docs/API.md sections 5–6).
 * The OpenAPI document is built from this module alone.
 */
@Module({
  controllers: [
    AbrirAtendimentoHttpController,
    ListarAtendimentosHttpController,
    ConsultarAtendimentoHttpController,
    RegistrarMensagemHttpController,
    EncerrarAtendimentoHttpController,
    ListarAgentesHttpController,
    CriarAgenteHttpController,
    ConversarHttpController,
  ],
  providers,
  exports: providers,
})
export class AtendimentoHttpModule {}

/**
 * Support conversations and virtual agents: the routes, plus the consumers that give every
 * store its built-in agent (lojas.events.v1) and keep the agents' view of tracking
 * (tracking.events.v1).
 */
@Module({
  imports: [AtendimentoHttpModule],
  controllers: [AssistenteDeRastreioMessageController, RastreioPedidosMessageController],
})
export class AtendimentoModule {}
