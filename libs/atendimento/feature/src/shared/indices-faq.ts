import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { FaqIndex, type EntradaFaq } from '@trilha/atendimento-domain';

/** FAQ indexes kept per replica; past this many agents the least recently used is dropped. */
const MAX_INDICES = 500;

/**
 * The FAQ index of each agent, kept in memory so that answering does not re-index (MiniSearch
 * indexing 1,000 entries costs far more than a search). An index is keyed by the agent's stream
 * version, so any change to the agent, on any replica, makes the next conversation rebuild it.
 */
@Injectable()
export class IndicesFaq {
  private readonly indices = new Map<string, { versao: number; faq: FaqIndex }>();

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The agent's index at `versao` (its stream version in the read model): the one kept, or one built from the read model. */
  async doAgente(idAgente: string, versao: number): Promise<FaqIndex> {
    const cached = this.indices.get(idAgente);
    if (cached && cached.versao === versao) {
      this.guardar(idAgente, cached);
      return cached.faq;
    }
    const [{ faq }] = await this.dataSource.query<{ faq: EntradaFaq[] }[]>(`SELECT faq FROM agentes WHERE id_agente = $1`, [idAgente]);
    const fresh = { versao, faq: new FaqIndex(faq) };
    this.guardar(idAgente, fresh);
    return fresh.faq;
  }

  /** Keeps `index` as the agent's most recently used. */
  guardar(idAgente: string, index: { versao: number; faq: FaqIndex }): void {
    this.indices.delete(idAgente);
    this.indices.set(idAgente, index);
    if (this.indices.size > MAX_INDICES) this.indices.delete(this.indices.keys().next().value!);
  }
}
