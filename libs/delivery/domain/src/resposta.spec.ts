import { MAX_TRECHO_RESPOSTA, trechoDaResposta } from './resposta';

const bytes = (texto: string) => new TextEncoder().encode(texto);

describe('trechoDaResposta', () => {
  it('keeps a short answer whole', () => {
    expect(trechoDaResposta(bytes('{"erro":"ação inválida 🚚"}'))).toBe('{"erro":"ação inválida 🚚"}');
  });

  it('keeps the first 2 KB and leaves out a character the cut splits', () => {
    expect(trechoDaResposta(bytes('a'.repeat(5000)))).toBe('a'.repeat(MAX_TRECHO_RESPOSTA));
    // 2046 bytes of ASCII, then a 4-byte emoji across the cut.
    expect(trechoDaResposta(bytes(`${'a'.repeat(2046)}🚚fim`))).toBe('a'.repeat(2046));
    expect(trechoDaResposta(bytes(`${'a'.repeat(2044)}🚚fim`))).toBe(`${'a'.repeat(2044)}🚚`);
  });

  it('shows invalid UTF-8 and NUL as U+FFFD', () => {
    expect(trechoDaResposta(new Uint8Array([0x6f, 0xff, 0x00, 0x6b]))).toBe('o\uFFFD\uFFFDk');
  });

  it('is empty for an empty answer', () => {
    expect(trechoDaResposta(new Uint8Array())).toBe('');
  });
});
