import { Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { StatementPerTurn } from '@trilha/event-store';
import { ehUuid } from '@trilha/ids';
import { consultaPreparada } from '../shared/banco';

interface Remocao {
  idLoja: number;
  codigo: string;
}

/** Marks pending items removed, one per (store, item) given; returns those it marked. */
const REMOVER = `UPDATE fila f SET removido_em = now()
  FROM unnest($1::int[], $2::uuid[]) AS r(id_loja, id_documento)
  WHERE f.id_loja = r.id_loja AND f.id_documento = r.id_documento AND f.removido_em IS NULL
  RETURNING f.id_loja, f.id_documento::text`;

/**
 * DELETE /fila/delete?codigo= (docs/API.md section 8): marks one pending item of the store's
 * queue removed. The removals of a turn share one statement and one commit (`StatementPerTurn`);
 * an item asked twice in it is removed by the first request, the other finds it gone.
 */
@Injectable()
export class RemoverDaFilaHandler {
  private readonly remocoes = new StatementPerTurn<Remocao, boolean>((remocoes) => this.remover(remocoes));

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async execute(idLoja: number, codigo: string): Promise<void> {
    const removido = ehUuid(codigo) && (await this.remocoes.submit({ idLoja, codigo: codigo.toLowerCase() }));
    if (!removido) throw new NotFoundException('Evento não encontrado na fila desta loja (ou já removido).');
  }

  private async remover(remocoes: Remocao[]): Promise<boolean[]> {
    const marcados = await consultaPreparada<{ id_loja: number; id_documento: string }>(this.dataSource, 'remover_da_fila', REMOVER, [
      remocoes.map(({ idLoja }) => idLoja),
      remocoes.map(({ codigo }) => codigo),
    ]);
    const aRemover = new Set(marcados.map((marcado) => `${marcado.id_loja}:${marcado.id_documento}`));
    // Each removed item answers its first request only.
    return remocoes.map(({ idLoja, codigo }) => aRemover.delete(`${idLoja}:${codigo}`));
  }
}
