import { Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { EventStore, handleCommand } from '@trilha/event-store';
import { agenteDecider, agenteStreamId, assistenteDeRastreio, FaqIndex, idAssistenteDeRastreio, type Agente, type AtendimentoServiceEvent, type EntradaFaq, type Habilidade } from '@trilha/atendimento-domain';
import type { AgenteResponse } from './agente.response';

interface AgenteRow {
  id_agente: string;
  nome: string;
  descricao: string;
  habilidades: Habilidade[];
  ativo: boolean;
  versao: number;
}

/** An agent ready to answer: its skills and its FAQ index. */
export interface AgenteParaConversa {
  idAgente: string;
  habilidades: Habilidade[];
  faq: FaqIndex;
}

/** FAQ indexes kept per replica; past this many agents the least recently used is dropped. */
const MAX_INDICES = 500;

const response = (row: AgenteRow): AgenteResponse => ({
  idAgente: row.id_agente, nome: row.nome, descricao: row.descricao, habilidades: row.habilidades, ativo: row.ativo,
});

/**
 * Agents: creation through their streams, reads from the read model, and the FAQ index of each
 * agent kept in memory so that answering does not re-index (MiniSearch indexing 1,000 entries
 * costs far more than a search). An index is keyed by the agent's stream version, so any change
 * to the agent, on any replica, makes the next conversation rebuild it.
 */
@Injectable()
export class AgentesService {
  private readonly indices = new Map<string, { versao: number; faq: FaqIndex }>();

  constructor(
    private readonly store: EventStore<AtendimentoServiceEvent>,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /** Creates the agent and, on this replica, its FAQ index, so its first conversation does not pay for indexing. */
  async criar(agente: Agente): Promise<void> {
    const { events } = await handleCommand(this.store, agenteDecider, agenteStreamId(agente.idAgente), { acao: 'criar', agente }, { idLoja: agente.idLoja });
    if (events.length > 0) this.guardar(agente.idAgente, { versao: events[events.length - 1].streamVersion, faq: new FaqIndex(agente.faq) });
  }

  async listar(idLoja: number): Promise<AgenteResponse[]> {
    const query = () =>
      this.dataSource.query<AgenteRow[]>(
        `SELECT id_agente, nome, descricao, habilidades, ativo, versao FROM agentes WHERE id_loja = $1 ORDER BY criado_em, id_agente`,
        [idLoja],
      );
    let rows = await query();
    if (!rows.some((row) => row.id_agente === idAssistenteDeRastreio(idLoja))) rows = await this.comAssistente(idLoja, query);
    return rows.map(response);
  }

  async paraConversa(idLoja: number, idAgente: string): Promise<AgenteParaConversa> {
    const query = () =>
      this.dataSource.query<AgenteRow[]>(
        `SELECT id_agente, nome, descricao, habilidades, ativo, versao FROM agentes WHERE id_agente = $1 AND id_loja = $2`,
        [idAgente, idLoja],
      );
    let [row] = await query();
    if (!row && idAgente === idAssistenteDeRastreio(idLoja)) [row] = await this.comAssistente(idLoja, query);
    if (!row || !row.ativo) throw new NotFoundException('Agente não encontrado.');
    return { idAgente, habilidades: row.habilidades, faq: await this.faqIndex(idAgente, row.versao) };
  }

  /**
   * Every store has its built-in agent from the moment it exists: the store's `loja.criada`
   * creates it, and so does the store's first request that finds it missing (the gateway
   * forwards only requests of stores that exist), whichever comes first; the second changes
   * nothing. Reads again with `query`.
   */
  private async comAssistente<T>(idLoja: number, query: () => Promise<T>): Promise<T> {
    await this.criar(assistenteDeRastreio(idLoja, new Date().toISOString()));
    return query();
  }

  private async faqIndex(idAgente: string, versao: number): Promise<FaqIndex> {
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

  private guardar(idAgente: string, index: { versao: number; faq: FaqIndex }): void {
    this.indices.delete(idAgente);
    this.indices.set(idAgente, index);
    if (this.indices.size > MAX_INDICES) this.indices.delete(this.indices.keys().next().value!);
  }
}
