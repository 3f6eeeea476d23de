import { Module } from '@nestjs/common';
import { AbrirAtendimentoHandler } from './abrir-atendimento/abrir-atendimento.handler';
import { AbrirAtendimentoHttpController } from './abrir-atendimento/abrir-atendimento.http.controller';
import { AssistenteDeRastreioHandler } from './assistente-de-rastreio/assistente-de-rastreio.handler';
import { AssistenteDeRastreioMessageController } from './assistente-de-rastreio/assistente-de-rastreio.message.controller';
import { ConsultarAtendimentoHandler } from './consultar-atendimento/consultar-atendimento.handler';
import { ConsultarAtendimentoHttpController } from './consultar-atendimento/consultar-atendimento.http.controller';
import { ConversarComAgenteHandler } from './conversar-com-agente/conversar-com-agente.handler';
import { ConversarComAgenteHttpController } from './conversar-com-agente/conversar-com-agente.http.controller';
import { CriarAgenteHandler } from './criar-agente/criar-agente.handler';
import { CriarAgenteHttpController } from './criar-agente/criar-agente.http.controller';
import { EncerrarAtendimentoHandler } from './encerrar-atendimento/encerrar-atendimento.handler';
import { EncerrarAtendimentoHttpController } from './encerrar-atendimento/encerrar-atendimento.http.controller';
import { ListarAgentesHandler } from './listar-agentes/listar-agentes.handler';
import { ListarAgentesHttpController } from './listar-agentes/listar-agentes.http.controller';
import { ListarAtendimentosHandler } from './listar-atendimentos/listar-atendimentos.handler';
import { ListarAtendimentosHttpController } from './listar-atendimentos/listar-atendimentos.http.controller';
import { RastreioPedidosMessageController } from './rastreio-pedidos/rastreio-pedidos.message.controller';
import { RegistrarMensagemHandler } from './registrar-mensagem/registrar-mensagem.handler';
import { RegistrarMensagemHttpController } from './registrar-mensagem/registrar-mensagem.http.controller';
import { AgenteCommands } from './shared/agente-commands';
import { AtendimentoCommands } from './shared/atendimento-commands';
import { IndicesFaq } from './shared/indices-faq';
import { LeituraDeAtendimento } from './shared/leitura-de-atendimento';
import { RastreioPedidos } from './shared/rastreio-pedidos';

/** What several use cases share: the commands of both streams, the FAQ indexes of this replica, the reads. */
const shared = [AtendimentoCommands, AgenteCommands, IndicesFaq, LeituraDeAtendimento, RastreioPedidos];

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
    ConversarComAgenteHttpController,
  ],
  providers: [
    ...shared,
    AbrirAtendimentoHandler,
    ListarAtendimentosHandler,
    ConsultarAtendimentoHandler,
    RegistrarMensagemHandler,
    EncerrarAtendimentoHandler,
    ListarAgentesHandler,
    CriarAgenteHandler,
    ConversarComAgenteHandler,
  ],
  exports: shared,
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
  providers: [AssistenteDeRastreioHandler],
})
export class AtendimentoModule {}
