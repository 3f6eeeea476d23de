/**
 * The virtual support agent aggregate: pure decide/evolve. An agent answers with its skills:
 * `rastreio` (the store's tracking data) and `faq` (its questions and answers). Its events
 * stay in this service (they are not part of any published contract).
 */

export const HABILIDADES = ['rastreio', 'faq'] as const;
export type Habilidade = (typeof HABILIDADES)[number];

export interface EntradaFaq {
  pergunta: string;
  resposta: string;
}

/**
 * How large an agent's FAQ may be: each replica keeps its index in memory and builds it again
 * whenever the agent changes or is evicted, in the event loop that answers every store.
 */
export const FAQ_LIMITES = { entradas: 1000, pergunta: 500, resposta: 2000, caracteres: 100_000 } as const;

/** The characters of an FAQ that count toward `FAQ_LIMITES.caracteres`: its questions and answers. */
export const caracteresDoFaq = (faq: readonly EntradaFaq[]): number => faq.reduce((total, { pergunta, resposta }) => total + pergunta.length + resposta.length, 0);

export interface Agente {
  idAgente: string;
  idLoja: number;
  nome: string;
  descricao: string;
  habilidades: Habilidade[];
  faq: EntradaFaq[];
  ativo: boolean;
  criadoEm: string;
}

export type AgenteEvent = { type: 'agente.criado'; data: Agente };

export type AgenteCommand = { acao: 'criar'; agente: Agente };

export type AgenteState = { existe: false } | ({ existe: true } & Agente);

export const agenteInicial = (): AgenteState => ({ existe: false });

export const agenteStreamId = (idAgente: string): string => `agente-${idAgente}`;

/** Creating an agent that exists changes nothing: the built-in one is created once per store, however often its trigger arrives. */
export function decideAgente(command: AgenteCommand, state: AgenteState): AgenteEvent[] {
  if (state.existe) return [];
  return [{ type: 'agente.criado', data: command.agente }];
}

export function evolveAgente(_state: AgenteState, event: AgenteEvent): AgenteState {
  return { existe: true, ...event.data };
}

export const agenteDecider = { decide: decideAgente, evolve: evolveAgente, initialState: agenteInicial };

export const NOME_ASSISTENTE_DE_RASTREIO = 'Assistente de rastreio';

/** The built-in agent's id is derived from its store, so creating it again finds the same stream. */
export const idAssistenteDeRastreio = (idLoja: number): string => `rastreio-${idLoja}`;

/** What every store's built-in agent knows besides the store's tracking data. */
export const FAQ_ASSISTENTE_DE_RASTREIO: EntradaFaq[] = [
  {
    pergunta: 'Como acompanho meu pedido? Onde está minha encomenda?',
    resposta: 'Me envie o número do pedido, o número do pedido no marketplace ou o código de rastreio, e eu digo onde sua encomenda está.',
  },
  {
    pergunta: 'Quero falar com um atendente humano, uma pessoa.',
    resposta: 'Tudo bem! Vou encaminhar sua conversa para um atendente da loja, que responde por aqui mesmo.',
  },
];

export function assistenteDeRastreio(idLoja: number, agora: string): Agente {
  return {
    idAgente: idAssistenteDeRastreio(idLoja),
    idLoja,
    nome: NOME_ASSISTENTE_DE_RASTREIO,
    descricao: 'Responde onde está o pedido a partir do rastreamento da loja e tira dúvidas frequentes.',
    habilidades: ['rastreio', 'faq'],
    faq: FAQ_ASSISTENTE_DE_RASTREIO,
    ativo: true,
    criadoEm: agora,
  };
}
