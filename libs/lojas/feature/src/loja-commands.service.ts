import { ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { EventStore, handleCommand, type AppendedEvent } from '@trilha/event-store';
import { LojaJaExiste, LojaNaoEncontrada, lojaDecider, lojaStreamId, type LojaCommand, type LojaEvent, type LojaState } from '@trilha/lojas-domain';
import { LojaStatusCache } from './auth/loja-status.cache';
import type { LojaRow } from './lojas.projection';
import type { LojaResponse } from './loja.response';

/** Runs a store command against its stream and keeps this replica's token checks in step. */
@Injectable()
export class LojaCommandsService {
  constructor(
    private readonly store: EventStore<LojaEvent>,
    private readonly cache: LojaStatusCache,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async executar(idLoja: number, command: LojaCommand): Promise<{ state: LojaState; events: AppendedEvent<LojaEvent>[] }> {
    try {
      const decision = await handleCommand(this.store, lojaDecider, lojaStreamId(idLoja), command, { idLoja });
      for (const event of decision.events) this.cache.applyOwn(event);
      return decision;
    } catch (error) {
      if (error instanceof LojaNaoEncontrada) throw new NotFoundException(error.message);
      if (error instanceof LojaJaExiste) throw new ConflictException(error.message);
      throw error;
    }
  }

  async ler(idLoja: number): Promise<LojaResponse> {
    const rows: LojaRow[] = await this.dataSource.query(`SELECT * FROM lojas WHERE id_loja = $1`, [idLoja]);
    if (rows.length === 0) throw new NotFoundException('Loja não encontrada.');
    return { idLoja: rows[0].id_loja, nome: rows[0].nome, ativa: rows[0].ativa, criadaEm: rows[0].criada_em.toISOString() };
  }
}
