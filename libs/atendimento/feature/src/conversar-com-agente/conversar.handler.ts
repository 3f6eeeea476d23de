import { Injectable } from '@nestjs/common';
import { MENSAGEM_MAX } from '@trilha/contracts';
import { falaDePedido, identificadoresCandidatos, REMETENTE_CLIENTE, responder } from '@trilha/atendimento-domain';
import { AgentesService } from '../agentes.service';
import { AtendimentoCommandsService } from '../atendimento-commands.service';
import { novoId } from '../novo-id';
import { RastreioPedidos } from '../rastreio-pedidos/rastreio-pedidos';
import type { ConversarRequest } from './conversar.request';
import type { ConversarResponse } from './conversar.response';

/**
 * A message to an agent: the store's orders it names (rastreio), else the agent's best FAQ
 * entry, else an offer of a human. With `idAtendimento` the exchange joins that conversation
 * as two messages in one append (so a closed or unknown conversation writes nothing).
 */
@Injectable()
export class ConversarHandler {
  constructor(
    private readonly agentes: AgentesService,
    private readonly rastreio: RastreioPedidos,
    private readonly atendimentos: AtendimentoCommandsService,
  ) {}

  async execute(idLoja: number, idAgente: string, request: ConversarRequest): Promise<ConversarResponse> {
    const agente = await this.agentes.paraConversa(idLoja, idAgente);
    const rastreia = agente.habilidades.includes('rastreio');
    const identificadores = rastreia ? identificadoresCandidatos(request.mensagem) : [];
    const pedidos = await this.rastreio.buscar(idLoja, identificadores);
    const pedidoNaoEncontrado = pedidos.length === 0 && identificadores.length > 0 && falaDePedido(request.mensagem);
    const faq = agente.habilidades.includes('faq') && pedidos.length === 0 && !pedidoNaoEncontrado ? agente.faq.melhor(request.mensagem) : null;
    const resposta = responder(agente, { pedidos, pedidoNaoEncontrado, faq }, MENSAGEM_MAX);

    if (request.idAtendimento) {
      await this.atendimentos.executar(request.idAtendimento, idLoja, {
        acao: 'registrarMensagens',
        idLoja,
        agora: new Date().toISOString(),
        mensagens: [
          { idMensagem: novoId(), direcao: 'entrada', remetente: REMETENTE_CLIENTE, mensagem: request.mensagem },
          { idMensagem: novoId(), direcao: 'saida', remetente: `agente:${idAgente}`, mensagem: resposta.resposta },
        ],
      });
    }
    return { idConversa: request.idConversa ?? novoId(), ...resposta };
  }
}
