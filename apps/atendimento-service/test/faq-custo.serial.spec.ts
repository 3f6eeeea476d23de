import { FAQ_LIMITES } from '@trilha/atendimento-domain';
import { MENSAGEM_MAX } from '@trilha/contracts';
import { apiClient, createStore, percentile, testStack } from '@trilha/testing';

// Serial: the other store's latency is what is measured, so no other test may load the stack meanwhile.
const stack = testStack();
const api = apiClient(stack.baseUrl, stack.caFile);

const letra = () => String.fromCharCode(97 + Math.floor(Math.random() * 26));
const palavra = (letras: number) => Array.from({ length: letras }, letra).join('');
/** Random words of `letras` letters up to `caracteres`: every word a term of its own, the largest vocabulary a text can have. */
function texto(caracteres: number, letras: number): string {
  return Array.from({ length: Math.floor((caracteres + 1) / (letras + 1)) }, () => palavra(letras)).join(' ');
}
/** What one store may send to one route: 600 requests a minute (docs/API.md, section 0). */
const INTERVALO_MS = 100;
const VIZINHAS = 4;
const MENSAGENS = 60;

async function medido<T>(call: () => Promise<T>): Promise<{ answer: T; ms: number }> {
  const started = performance.now();
  const answer = await call();
  return { answer, ms: performance.now() - started };
}

describe('an FAQ agent’s search costs one store little, whatever it sends (docs/DEPLOY.md, Security)', () => {
  it('answers the largest FAQ of random words long messages of long random words within a second, while another store reads its conversation in under 100 ms (p99)', async () => {
    const atacante = await createStore('Loja do FAQ enorme');
    const entradas = Math.floor(FAQ_LIMITES.caracteres / (FAQ_LIMITES.pergunta + FAQ_LIMITES.resposta));
    const faq = Array.from({ length: entradas }, () => ({ pergunta: texto(FAQ_LIMITES.pergunta, 8), resposta: texto(FAQ_LIMITES.resposta, 8) }));
    const criado = await api('POST', '/agentes', { token: atacante.token, body: { nome: 'FAQ enorme', descricao: 'Palavras aleatórias', faq } });
    expect(criado.status).toBe(201);

    // Other stores, each reading its conversation as often as it may (600 a minute, docs/API.md).
    const vizinhas = await Promise.all(
      Array.from({ length: VIZINHAS }, async (_, indice) => {
        const { token } = await createStore(`Loja vizinha ${indice}`);
        const aberto = await api('POST', '/atendimentos', { token, body: { canal: 'chat', tipo: 'duvida', dadosCliente: { nome: 'Cliente' }, mensagem: 'Oi' } });
        expect(aberto.status).toBe(201);
        return { token, idAtendimento: aberto.body.idAtendimento as string };
      }),
    );
    /** The latency of every read of the other stores until `fim` settles. */
    async function leiturasDasVizinhas(fim: Promise<unknown>): Promise<number[]> {
      let lendo = true;
      void fim.finally(() => (lendo = false));
      const leituras: number[] = [];
      await Promise.all(
        vizinhas.map(async ({ token, idAtendimento }) => {
          while (lendo) {
            const proxima = new Promise((resolve) => setTimeout(resolve, INTERVALO_MS));
            const { answer, ms } = await medido(() => api('GET', `/atendimentos/${idAtendimento}`, { token }));
            expect(answer.status).toBe(200);
            leituras.push(ms);
            await proxima;
          }
        }),
      );
      return leituras;
    }

    // What this machine gives the other stores anyway, measured as long as the attack lasts.
    const semAtaque = await leiturasDasVizinhas(new Promise((resolve) => setTimeout(resolve, MENSAGENS * INTERVALO_MS)));

    // As fast as one store may (600 messages a minute, docs/API.md): the first message builds the
    // agent's index, the others search it with every length of word.
    const respostas: { letras: number; status: number; intencao: string; ms: number }[] = [];
    const ataque = (async () => {
      for (let enviada = 0; enviada < MENSAGENS; enviada += 1) {
        const letras = [30, 15, 10, 8, 6, 4][enviada % 6];
        const proxima = new Promise((resolve) => setTimeout(resolve, INTERVALO_MS));
        const { answer, ms } = await medido(() => api('POST', `/agentes/${criado.body.idAgente}/conversar`, { token: atacante.token, body: { mensagem: texto(MENSAGEM_MAX, letras) } }));
        respostas.push({ letras, status: answer.status, intencao: answer.body.intencao, ms: Math.round(ms) });
        await proxima;
      }
    })();
    const duranteAtaque = await leiturasDasVizinhas(ataque);

    expect(respostas.filter(({ status, intencao, ms }) => status !== 200 || intencao !== 'desconhecida' || ms >= 1000)).toEqual([]);
    // The attack adds less than 100 ms to the other stores' p99, beyond what the machine's other load adds.
    expect(percentile(duranteAtaque, 99) - percentile(semAtaque, 99)).toBeLessThan(100);
  });
});
