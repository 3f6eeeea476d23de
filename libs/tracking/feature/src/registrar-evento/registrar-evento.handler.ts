import { Injectable } from '@nestjs/common';
import { hashEvento, TIPO_PEDIDO_PADRAO, volumeDoEvento, type NovoEvento } from '@trilha/tracking-domain';
import { PedidoCommands, type PedidoDecision } from '../pedido-commands.service';
import type { RegistrarEventoRequest } from './registrar-evento.request';
import type { EventoRegistradoResponse } from './registrar-evento.response';

/** Registers a tracking event, creating the order and the volume on first use; idempotent. */
@Injectable()
export class RegistrarEventoHandler {
  constructor(private readonly commands: PedidoCommands) {}

  async execute(idLoja: number, body: RegistrarEventoRequest, origem: string): Promise<{ novo: boolean; resposta: EventoRegistradoResponse }> {
    const evento: NovoEvento = {
      numeroPedido: body.numeroPedido,
      tipoPedido: body.tipoPedido ?? TIPO_PEDIDO_PADRAO,
      pedidoCanal: body.pedidoCanal ?? null,
      codigoRastreio: body.codigoRastreio ?? null,
      chaveNFe: body.chaveNFe ?? null,
      identificador: body.identificador ?? null,
      codigoEnvio: body.codigoEnvio ?? null,
      rotulo: body.rotulo ?? null,
      dataHora: body.dataHora,
      descricao: body.descricao,
      sigla: body.sigla ?? '',
      visivelClienteFinal: body.visivelClienteFinal ?? true,
      encerraVolume: body.encerraVolume ?? false,
      origem,
    };
    const agora = new Date().toISOString();
    const resposta = ({ state }: PedidoDecision): EventoRegistradoResponse => {
      const pedido = state.pedido!;
      // Recorded now or before (a repeated post), the event is in the volume its keys name.
      const volume = volumeDoEvento(state.volumes, evento);
      return {
        idPedido: pedido.idPedido,
        numeroPedido: pedido.numeroPedido,
        chaveEnvio: volume.chaveEnvio,
        origemChave: volume.origemChave,
        hash: hashEvento({ idLoja, idPedido: pedido.idPedido, chaveEnvio: volume.chaveEnvio, ...evento }),
        linkRastreio: pedido.linkRastreio,
      };
    };
    const decision = await this.commands.naChave(idLoja, evento.numeroPedido, evento.tipoPedido, (novo) => ({ acao: 'registrarEvento', idLoja, evento, novo, agora }), resposta);
    return { novo: decision.events.some((event) => event.type === 'rastreio.evento.registrado'), resposta: resposta(decision) };
  }
}
