import MiniSearch from 'minisearch';
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

const SEARCH = { fuzzy: 0.2, prefix: true, combineWith: 'OR' as const, boost: { pergunta: 2 } };
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
    searchOptions: SEARCH,
  });
  private readonly termosDaPergunta: Set<string>[];

  constructor(private readonly entradas: readonly EntradaFaq[]) {
    this.index.addAll(entradas.map((entrada, id) => ({ id, ...entrada })));
    this.termosDaPergunta = entradas.map((entrada) => termos(entrada.pergunta));
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
