import { FaqIndex, normalizar } from './faq-index';

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
