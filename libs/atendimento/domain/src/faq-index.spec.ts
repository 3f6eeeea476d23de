import { caracteresDoFaq, FAQ_LIMITES } from './agente';
import { BUSCA_LIMITES, FaqIndex, normalizar } from './faq-index';

const faq = [
  { pergunta: 'Qual o prazo de entrega para o Nordeste?', resposta: 'Entregamos no Nordeste em até 7 dias úteis após a postagem.' },
  { pergunta: 'Como faço para trocar um produto?', resposta: 'Você pode pedir a troca em até 30 dias pelo site, em Meus Pedidos.' },
  { pergunta: 'Quais são as formas de pagamento?', resposta: 'Aceitamos cartão de crédito em até 12x, boleto e Pix.' },
  { pergunta: 'Vocês emitem nota fiscal?', resposta: 'Sim, a nota fiscal eletrônica vai junto com o pedido e por e-mail.' },
];
const index = new FaqIndex(faq);
const pergunta = (mensagem: string) => index.melhor(mensagem)?.entrada.pergunta;

describe('FAQ matching', () => {
  it('finds the entry for a paraphrase', () => {
    expect(pergunta('Em quanto tempo chega no nordeste?')).toBe(faq[0].pergunta);
    expect(pergunta('como eu troco um produto')).toBe(faq[1].pergunta);
    expect(pergunta('Vocês aceitam PIX?')).toBe(faq[2].pergunta);
    expect(pergunta('tem nota fiscal?')).toBe(faq[3].pergunta);
  });

  it('ignores accents and case', () => {
    expect(pergunta('QUAIS SÃO AS FORMAS DE PAGAMENTO')).toBe(faq[2].pergunta);
    expect(pergunta('quais sao as formas de pagamento')).toBe(faq[2].pergunta);
    expect(normalizar('Devolução ÀS Três')).toBe('devolucao as tres');
  });

  it('tolerates a typo', () => {
    expect(pergunta('qual o prazo de entrga pro nordeste')).toBe(faq[0].pergunta);
  });

  it('answers nothing below the confidence threshold', () => {
    expect(index.melhor('vocês vendem bicicleta?')).toBeNull();
    expect(index.melhor('qual a capital da França')).toBeNull();
    // One word of a three-word question is a guess.
    expect(index.melhor('prazo')).toBeNull();
    expect(index.melhor('o site caiu')).toBeNull();
  });

  it('reports its confidence', () => {
    expect(index.melhor('prazo de entrega para o Nordeste')?.confianca).toBe(1);
    expect(index.melhor('prazo', 0)?.confianca).toBeCloseTo(1 / 3);
  });

  it('finds the one entry asked about among 1,000 (its speed is bench/agente-conversar.mjs’s target)', () => {
    const grande = new FaqIndex(Array.from({ length: 1000 }, (_, i) => ({
      pergunta: `Pergunta ${i} sobre produto${i} e serviço${i % 37} da categoria${i % 11}?`,
      resposta: `Resposta ${i}.`,
    })));
    for (const i of [0, 7, 700, 999]) expect(grande.melhor(`Pergunta ${i} sobre produto${i} e serviço${i % 37} da categoria${i % 11}`)?.entrada.resposta).toBe(`Resposta ${i}.`);
  });
});

describe('the cost of one search, whatever the message and the index', () => {
  /** Random letters from a fixed seed (mulberry32): every word a term of its own, the largest vocabulary a text can have. */
  let semente = 20261126;
  const aleatorio = () => {
    semente = (semente + 0x6d2b79f5) | 0;
    let t = Math.imul(semente ^ (semente >>> 15), 1 | semente);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const palavra = (letras: number, inicio = '') => inicio + Array.from({ length: letras - inicio.length }, () => String.fromCharCode(97 + Math.floor(aleatorio() * 26))).join('');
  const texto = (caracteres: number, proxima: () => string) => {
    const palavras: string[] = [];
    for (let tamanho = -1, nova = proxima(); tamanho + nova.length + 1 <= caracteres; nova = proxima()) {
      palavras.push(nova);
      tamanho += nova.length + 1;
    }
    return palavras.join(' ');
  };
  const faqDe = (entradas: number, proxima: () => string) =>
    Array.from({ length: entradas }, () => ({ pergunta: texto(FAQ_LIMITES.pergunta, proxima), resposta: texto(FAQ_LIMITES.resposta, proxima) }));
  /** The longest message a conversation takes (MENSAGEM_MAX). */
  const MENSAGEM_MAX = 4000;

  /**
   * The CPU milliseconds of the slowest message's search, so that other processes on the machine
   * do not count; each message searched three times and its cheapest kept, so that a garbage
   * collection or a compilation on another of the process's threads does not count either (a
   * search costs the same each time).
   */
  const maisLenta = (index: FaqIndex, mensagens: string[]) =>
    Math.max(...mensagens.map((mensagem) => Math.min(...[1, 2, 3].map(() => {
      const antes = process.cpuUsage();
      index.melhor(mensagem);
      const { user, system } = process.cpuUsage(antes);
      return (user + system) / 1000;
    }))));
  /**
   * The CPU milliseconds of a fixed piece of work like a search's (short strings built and
   * counted in a Map), cheapest of three: how fast this machine is at this moment. The bounds
   * below are this machine's figure times the ratio to it, since machines and moments differ
   * several times in speed.
   */
  const sonda = () =>
    Math.min(...[1, 2, 3].map(() => {
      const antes = process.cpuUsage();
      const contagem = new Map<string, number>();
      for (let i = 0; i < 300_000; i += 1) {
        const termo = `t${i % 7919}`;
        contagem.set(termo, (contagem.get(termo) ?? 0) + termo.length);
      }
      const { user, system } = process.cpuUsage(antes);
      return (user + system) / 1000;
    }));
  /** Messages of random words of every length, from too short to fuzzy-match to far longer than any real word. */
  const mensagensAleatorias = () => [2, 3, 4, 6, 8, 10, 15, 16, 30].map((letras) => texto(MENSAGEM_MAX, () => palavra(letras)));
  /** Messages of distinct prefixes of the index's one shared start ("pref", "prefa", "prefab"…). */
  const mensagemDePrefixos = (inicio: string) => texto(MENSAGEM_MAX, () => palavra(inicio.length + 1 + Math.floor(aleatorio() * 3), inicio));

  const entradasNoLimite = Math.floor(FAQ_LIMITES.caracteres / (FAQ_LIMITES.pergunta + FAQ_LIMITES.resposta));
  const faqNoLimite = faqDe(entradasNoLimite, () => palavra(8));
  /**
   * 1 MB, what an agent could hold before FAQ_LIMITES.caracteres: random words, and words that
   * all start with "pref" (one prefix every other term completes to).
   */
  const faqDeUmMega = [...faqDe(200, () => palavra(8)), ...faqDe(200, () => palavra(10, 'pref'))];

  it('searches the largest FAQ the API accepts, of random words, in under 4 times the probe’s CPU, whatever the message', () => {
    expect(caracteresDoFaq(faqNoLimite)).toBeLessThanOrEqual(FAQ_LIMITES.caracteres);
    const index = new FaqIndex(faqNoLimite);
    index.melhor('aquece o índice');
    // About 30 ms of CPU on a 2-core EPYC VM whose probe takes 25 ms; a search that grew with the
    // square of anything would take many times that.
    expect(maisLenta(index, mensagensAleatorias())).toBeLessThan(4 * sonda());
  });

  it('searches an agent of 1 MB stored before the limits in under 12 times the probe’s CPU, prefixes of its every term included', () => {
    const index = new FaqIndex(faqDeUmMega);
    index.melhor('aquece o índice');
    // About 125–180 ms of CPU where the probe takes 25 ms.
    expect(maisLenta(index, [...mensagensAleatorias(), mensagemDePrefixos('pref'), mensagemDePrefixos('pref')])).toBeLessThan(12 * sonda());
  });

  it('still completes a prefix few terms share, and tolerates one typo', () => {
    const index = new FaqIndex([{ pergunta: 'Qual a garantia do equipamento?', resposta: 'Um ano de garantia.' }, ...faqNoLimite]);
    expect(index.melhor('garant do equipa')?.entrada.resposta).toBe('Um ano de garantia.');
    expect(index.melhor('garantia do equipamenta')?.entrada.resposta).toBe('Um ano de garantia.');
  });

  it('weighs only the first distinct terms of a long message', () => {
    const index = new FaqIndex(faq);
    const ruido = Array.from({ length: BUSCA_LIMITES.termos }, () => palavra(8)).join(' ');
    expect(index.melhor(`prazo de entrega para o Nordeste ${ruido}`)?.entrada).toBe(faq[0]);
    expect(index.melhor(`${ruido} prazo de entrega para o Nordeste`)).toBeNull();
  });
});
