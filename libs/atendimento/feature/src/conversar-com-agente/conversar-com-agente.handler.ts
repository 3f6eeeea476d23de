import { Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { MENSAGEM_MAX } from '@trilha/contracts';
import { falaDePedido, idAssistenteDeRastreio, identificadoresCandidatos, REMETENTE_CLIENTE, responder, type FaqIndex, type Habilidade } from '@trilha/atendimento-domain';
import { ID_MAX, novoId } from '@trilha/ids';
import { AgenteCommands, AtendimentoCommands, IndicesFaq, RastreioPedidos } from '../shared';
import type { ConversarRequest } from './conversar-com-agente.request';
import type { ConversarResponse } from './conversar-com-agente.response';

interface AgenteRow {
  habilidades: Habilidade[];
  ativo: boolean;
  versao: number;
}

/** An agent ready to answer: its skills and its FAQ index. */
interface AgenteParaConversa {
  idAgente: string;
  habilidades: Habilidade[];
  faq: FaqIndex;
}

/**
 * A message to an agent: the store's orders it names (rastreio), else the agent's best FAQ
 * entry, else an offer of a human. With `idAtendimento` the exchange joins that conversation
 * as two messages in one append (so a closed or unknown conversation writes nothing).
 */
@Injectable()
export class ConversarComAgenteHandler {
  constructor(
    private readonly agentes: AgenteCommands,
    private readonly indices: IndicesFaq,
    private readonly rastreio: RastreioPedidos,
    private readonly atendimentos: AtendimentoCommands,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async execute(idLoja: number, idAgente: string, request: ConversarRequest): Promise<ConversarResponse> {
    if (idAgente.length > ID_MAX) throw new NotFoundException('Agente não encontrado.');
    const agente = await this.paraConversa(idLoja, idAgente);
    const rastreia = agente.habilidades.includes('rastreio');
    const identificadores = rastreia ? identificadoresCandidatos(request.mensagem) : [];
    const pedidos = await this.rastreio.buscar(idLoja, identificadores);
    const pedidoNaoEncontrado = pedidos.length === 0 && identificadores.length > 0 && falaDePedido(request.mensagem);
    const faq = agente.habilidades.includes('faq') && pedidos.length === 0 && !pedidoNaoEncontrado ? agente.faq.melhor(request.mensagem) : null;
    const resposta = responder(agente, { pedidos, pedidoNaoEncontrado, faq }, MENSAGEM_MAX);
    const conversa: ConversarResponse = { idConversa: request.idConversa ?? novoId(), ...resposta };

    if (request.idAtendimento) {
      await this.atendimentos.executar(request.idAtendimento, idLoja, {
        acao: 'registrarMensagens',
        idLoja,
        agora: new Date().toISOString(),
        mensagens: [
          { idMensagem: novoId(), direcao: 'entrada', remetente: REMETENTE_CLIENTE, mensagem: request.mensagem },
          { idMensagem: novoId(), direcao: 'saida', remetente: `agente:${idAgente}`, mensagem: resposta.resposta },
        ],
      }, () => conversa);
    }
    return conversa;
  }

  /** The store's active agent with its FAQ index; the built-in one is created here if the store has none yet. */
  private async paraConversa(idLoja: number, idAgente: string): Promise<AgenteParaConversa> {
    const ler = () =>
      this.dataSource.query<AgenteRow[]>(`SELECT habilidades, ativo, versao FROM agentes WHERE id_agente = $1 AND id_loja = $2`, [idAgente, idLoja]);
    let [row] = await ler();
    if (!row && idAgente === idAssistenteDeRastreio(idLoja)) [row] = await this.agentes.criarAssistenteDeRastreioELer(idLoja, ler);
    if (!row || !row.ativo) throw new NotFoundException('Agente não encontrado.');
    return { idAgente, habilidades: row.habilidades, faq: await this.indices.doAgente(idAgente, row.versao) };
  }
}
