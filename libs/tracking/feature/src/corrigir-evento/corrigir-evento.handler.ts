import { Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { InvalidInputException } from '@trilha/http';
import type { Correcao } from '@trilha/tracking-domain';
import { PedidoCommands } from '../pedido-commands.service';
import type { EventoRastreioResponse } from '../consultar-rastreio/registro-rastreio.response';
import type { CorrigirEventoRequest } from './corrigir-evento.request';

const HASH = /^[0-9a-f]{40}$/;
const NAO_ENCONTRADO = 'Evento de rastreio não encontrado nesta loja.';

/** A correction is a new fact in the order's history; the record shows the corrected values. */
@Injectable()
export class CorrigirEventoHandler {
  constructor(
    private readonly commands: PedidoCommands,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async execute(idLoja: number, hash: string, body: CorrigirEventoRequest): Promise<EventoRastreioResponse> {
    const correcao: Correcao = { dataHora: body.dataHora, descricao: body.descricao, sigla: body.sigla, visivelClienteFinal: body.visivelClienteFinal };
    if (Object.values(correcao).every((value) => value === undefined)) {
      throw new InvalidInputException(
        ['dataHora', 'descricao', 'sigla', 'visivelClienteFinal'].map((campo) => ({ campo, mensagem: 'informe ao menos um campo a corrigir' })),
      );
    }
    // Another store's hash is as unknown as one that never existed.
    const [row]: { id_pedido: string }[] = HASH.test(hash)
      ? await this.dataSource.query(`SELECT id_pedido FROM rastreio_hashes WHERE hash = $1 AND id_loja = $2`, [hash, idLoja])
      : [];
    if (!row) throw new NotFoundException(NAO_ENCONTRADO);
    const { state } = await this.commands.executar(idLoja, row.id_pedido, { acao: 'corrigirEvento', hash, correcao });
    const evento = state.volumes.flatMap((volume) => volume.eventos).find((candidate) => candidate.hash === hash)!;
    return {
      hash,
      tipo: state.pedido!.tipoPedido,
      dataHora: evento.dataHora,
      descricao: evento.descricao,
      sigla: evento.sigla,
      visivelClienteFinal: evento.visivelClienteFinal,
      origem: evento.origem,
    };
  }
}
