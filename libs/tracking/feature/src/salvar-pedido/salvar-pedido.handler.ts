import { Injectable } from '@nestjs/common';
import { SITUACAO_PADRAO, TIPO_PEDIDO_PADRAO, type DadosPedido } from '@trilha/tracking-domain';
import { PedidoCommands } from '../pedido-commands.service';
import { pedidoResposta, type PedidoResponse } from '../pedido.response';
import type { SalvarPedidoRequest } from './salvar-pedido.request';

/** Upsert of an order on numeroPedido + tipoPedido in the store. */
@Injectable()
export class SalvarPedidoHandler {
  constructor(private readonly commands: PedidoCommands) {}

  async execute(idLoja: number, body: SalvarPedidoRequest): Promise<{ criado: boolean; pedido: PedidoResponse }> {
    const dados: DadosPedido = {
      numeroPedido: body.numeroPedido,
      tipoPedido: body.tipoPedido ?? TIPO_PEDIDO_PADRAO,
      pedidoCanal: body.pedidoCanal ?? null,
      canalVenda: body.canalVenda ?? null,
      situacao: body.situacao ?? SITUACAO_PADRAO,
      // Plain objects: what is stored in the event is what was validated, nothing more.
      cliente: { ...body.cliente },
      enderecoEntrega: body.enderecoEntrega ? { ...body.enderecoEntrega } : null,
      itens: body.itens.map((item) => ({ ...item })),
      valorTotal: body.valorTotal,
      dataPedido: body.dataPedido,
    };
    const agora = new Date().toISOString();
    const decision = await this.commands.naChave(idLoja, dados.numeroPedido, dados.tipoPedido, (novo) => ({ acao: 'salvar', idLoja, dados, novo, agora }));
    return { criado: decision.criado, pedido: pedidoResposta(decision.state.pedido!) };
  }
}
