import MiniSearch from 'minisearch';
import SearchableMap from 'minisearch/SearchableMap';
import type { EntradaFaq } from './agente';

/**
 * Portuguese function words: they say nothing about which question is meant. Compared after
 * accents are stripped and letters lowered.
 */
const STOPWORDS = new Set(
  ('a o as os um uma uns umas de da do das dos em na no nas nos num numa por pela pelo pelas pelos para pra pro ' +
    'com sem sob sobre ate apos entre e ou mas se que qual quais como quando onde quanto quanta quantos quantas ' +
    'eu tu ele ela nos vos eles elas voce voces me te lhe mim meu minha meus minhas seu sua seus suas teu tua ' +
    'nosso nossa este esta estes estas esse essa esses essas isto isso aquilo aquele aquela ao aos ' +
    'e eh ser sou somos sao foi era estou estamos estao estar ter tem tenho temos tinha ha vou vai vao ' +
    'faco fazer faz fazem consigo conseguir nao sim ja mais muito pouco tambem so la aqui ai ola oi bom boa dia tarde noite obrigado obrigada favor gostaria queria quero saber poderia pode posso')
    .split(' '),
);

/** Lower-case, accents off: "Devolução" and "devolucao" are one word. */
export function normalizar(texto: string): string {
  return texto.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

function tokenize(texto: string): string[] {
  return normalizar(texto).split(/[^a-z0-9]+/);
}

/**
 * Words customers use for the same thing in a store's questions, folded into one term on both
 * sides of the index ("quando chega" asks what "prazo de entrega" answers). Keys are the terms
 * as `normalizar` and the plural rule leave them.
 */
const SINONIMOS: Record<string, string[]> = {
  entrega: ['entregar', 'entregam', 'entregue', 'entregamo', 'chega', 'chegar', 'chegam', 'chegou', 'chegue', 'receber', 'recebo', 'recebi', 'envio', 'enviar', 'enviam', 'enviado'],
  prazo: ['tempo', 'demora', 'demorar', 'demoram', 'dia', 'dias'],
  pedido: ['encomenda', 'compra', 'comprei', 'pacote'],
  troca: ['trocar', 'troco', 'troquei', 'trocam'],
  devolucao: ['devolver', 'devolvo', 'devolvi', 'devolvem', 'reembolso', 'estorno'],
  pagamento: ['pagar', 'pago', 'pagam', 'pix', 'cartao', 'boleto', 'parcelar', 'parcelado', 'parcela', 'parcelamento'],
  atendente: ['humano', 'pessoa', 'alguem', 'operador', 'vendedor', 'atendimento'],
  cancelar: ['cancelamento', 'cancela', 'cancelo', 'cancelado'],
  rastreio: ['rastrear', 'rastreamento', 'acompanhar', 'acompanho', 'acompanhamento'],
};
const CANONICO = new Map(Object.entries(SINONIMOS).flatMap(([termo, variantes]) => variantes.map((variante) => [variante, termo] as const)));

/** Drops function words, a plural `s` ("trocas" is "troca") and folds synonyms. */
function processTerm(term: string): string | null {
  if (term.length < 2 || STOPWORDS.has(term)) return null;
  const singular = term.length > 4 && term.endsWith('s') && !term.endsWith('ss') ? term.slice(0, -1) : term;
  return CANONICO.get(singular) ?? CANONICO.get(term) ?? singular;
}

const termos = (texto: string): Set<string> =>
  new Set(tokenize(texto).map(processTerm).filter((termo): termo is string => termo !== null));

/**
 * What one search may cost, whatever the message and however large the index (agents stored
 * before `FAQ_LIMITES` keep answering). MiniSearch looks each query term up, walks its term tree
 * for the terms within the fuzzy distance (a walk that grows steeply with the distance) and
 * scores every index term the query term is a prefix of. So a search weighs the first `termos`
 * distinct terms of a message, tolerates one typo (`fuzzy.distancia`) only in terms whose length
 * is that of a real word, and completes a term of at least `prefixo.minLetras` letters only when
 * at most `prefixo.maxCompletacoes` index terms start with it (an index of words sharing one
 * start would otherwise make one term score them all).
 */
export const BUSCA_LIMITES = {
  termos: 12,
  fuzzy: { minLetras: 4, maxLetras: 15, distancia: 1 },
  prefixo: { minLetras: 4, maxCompletacoes: 50 },
} as const;

/** The distinct terms of a message a search weighs, in the message's order. */
const termosDaBusca = (mensagem: string): string[] => [...termos(mensagem)].slice(0, BUSCA_LIMITES.termos);

const SEARCH = {
  tokenize: termosDaBusca,
  processTerm: (termo: string) => termo,
  fuzzy: (termo: string) => termo.length >= BUSCA_LIMITES.fuzzy.minLetras && termo.length <= BUSCA_LIMITES.fuzzy.maxLetras && BUSCA_LIMITES.fuzzy.distancia,
  combineWith: 'OR' as const,
  boost: { pergunta: 2 },
};

/** How many of the best-ranked entries are weighed for confidence. */
const CANDIDATOS = 5;

/** A match must cover at least this share of its question's words; below it the agent offers a human. */
export const CONFIANCA_MINIMA = 0.5;

export interface FaqMatch {
  entrada: EntradaFaq;
  /** 0–1: the share of the entry's question words the message matched. */
  confianca: number;
}

/**
 * Ranked matching of a customer's message against an agent's FAQ with MiniSearch (BM25 over
 * questions and answers, fuzzy and prefix matching). BM25 scores are not comparable between
 * messages, so confidence is how much of the matched entry's question the message covers:
 * "prazo" alone does not answer "prazo de entrega para o Nordeste", "quanto tempo demora para
 * chegar no Nordeste" does. The best of the top-ranked entries by that measure wins. Build one
 * per agent and keep it: indexing is the costly part.
 */
export class FaqIndex {
  private readonly index = new MiniSearch<{ id: number; pergunta: string; resposta: string }>({
    fields: ['pergunta', 'resposta'],
    tokenize,
    processTerm,
    searchOptions: { ...SEARCH, prefix: (termo: string) => this.completavel(termo) },
  });
  private readonly termosDaPergunta: Set<string>[];
  /** Every term of the index, to count how many a prefix would complete to. */
  private readonly vocabulario = new SearchableMap<true>();

  constructor(private readonly entradas: readonly EntradaFaq[]) {
    this.index.addAll(entradas.map((entrada, id) => ({ id, ...entrada })));
    this.termosDaPergunta = entradas.map((entrada) => termos(entrada.pergunta));
    for (const { pergunta, resposta } of entradas) for (const termo of termos(`${pergunta} ${resposta}`)) this.vocabulario.set(termo, true);
  }

  /** Whether `termo` is long enough to complete, and few index terms start with it. */
  private completavel(termo: string): boolean {
    if (termo.length < BUSCA_LIMITES.prefixo.minLetras) return false;
    let completacoes = 0;
    for (const _ of this.vocabulario.atPrefix(termo).keys()) if (++completacoes > BUSCA_LIMITES.prefixo.maxCompletacoes) return false;
    return true;
  }

  melhor(mensagem: string, minima = CONFIANCA_MINIMA): FaqMatch | null {
    let melhor: FaqMatch | null = null;
    for (const result of this.index.search(mensagem).slice(0, CANDIDATOS)) {
      const pergunta = this.termosDaPergunta[result.id];
      if (pergunta.size === 0) continue;
      const cobertos = result.terms.filter((termo) => pergunta.has(termo)).length;
      const confianca = cobertos / pergunta.size;
      if (!melhor || confianca > melhor.confianca) melhor = { entrada: this.entradas[result.id], confianca };
    }
    return melhor && melhor.confianca >= minima ? melhor : null;
  }
}
