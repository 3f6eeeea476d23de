import { FAQ_LIMITES } from '@trilha/atendimento-domain';
import { MENSAGEM_MAX } from '@trilha/contracts';
import { apiClient, createStore, testStack } from '@trilha/testing';

// Serial: the other store's latency is what is measured, so no other test may load the stack meanwhile.
const stack = testStack();
const api = apiClient(stack.baseUrl, stack.caFile);

const letra = () => String.fromCharCode(97 + Math.floor(Math.random() * 26));
const palavra = (letras: number) => Array.from({ length: letras }, letra).join('');
/** Random words of `letras` letters up to `caracteres`: every word a term of its own, the largest vocabulary a text can have. */
function texto(caracteres: number, letras: number): string {
  return Array.from({ length: Math.floor((caracteres + 1) / (letras + 1)) }, () => palavra(letras)).join(' ');
}
const percentil = (amostras: number[], p: number) => [...amostras].sort((a, b) => a - b)[Math.ceil((p / 100) * amostras.length) - 1];

async function medido<T>(call: () => Promise<T>): Promise<{ answer: T; ms: number }> {
  const started = performance.now();
  const answer = await call();
  return { answer, ms: performance.now() - started };
}

describe('an FAQ agent’s search costs one store little, whatever it sends (docs/DEPLOY.md, Security)', () => {
  it('answers the largest FAQ of random words long messages of long random words within a second, while another store reads its conversation in under 100 ms (p99)', async () => {
    const atacante = await createStore('Loja do FAQ enorme');
    const vizinha = await createStore('Loja vizinha');

    const entradas = Math.floor(FAQ_LIMITES.caracteres / (FAQ_LIMITES.pergunta + FAQ_LIMITES.resposta));
    const faq = Array.from({ length: entradas }, () => ({ pergunta: texto(FAQ_LIMITES.pergunta, 8), resposta: texto(FAQ_LIMITES.resposta, 8) }));
    const criado = await api('POST', '/agentes', { token: atacante.token, body: { nome: 'FAQ enorme', descricao: 'Palavras aleatórias', faq } });
    expect(criado.status).toBe(201);
    const aberto = await api('POST', '/atendimentos', { token: vizinha.token, body: { canal: 'chat', tipo: 'duvida', dadosCliente: { nome: 'Cliente' }, mensagem: 'Oi' } });
    expect(aberto.status).toBe(201);

    const leituras: number[] = [];
    let atacando = true;
    const vizinhaLendo = (async () => {
      while (atacando) {
        const { answer, ms } = await medido(() => api('GET', `/atendimentos/${aberto.body.idAtendimento}`, { token: vizinha.token }));
        expect(answer.status).toBe(200);
        leituras.push(ms);
      }
    })();

    // The first message builds the agent's index; the others search it with every length of word.
    const respostas = [];
    for (const letras of [30, 30, 15, 10, 8, 6, 4, 30, 15, 10, 8, 6, 4]) {
      const { answer, ms } = await medido(() => api('POST', `/agentes/${criado.body.idAgente}/conversar`, { token: atacante.token, body: { mensagem: texto(MENSAGEM_MAX, letras) } }));
      respostas.push({ letras, status: answer.status, intencao: answer.body.intencao, ms: Math.round(ms) });
    }
    atacando = false;
    await vizinhaLendo;

    expect(respostas.filter(({ status, intencao, ms }) => status !== 200 || intencao !== 'desconhecida' || ms >= 1000)).toEqual([]);
    expect(leituras.length).toBeGreaterThanOrEqual(50);
    expect(percentil(leituras, 99)).toBeLessThan(100);
  });
});
