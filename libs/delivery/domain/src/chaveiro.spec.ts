import { randomBytes } from 'node:crypto';
import { gerarSegredo } from './assinatura';
import { Chaveiro, idDaChave, lerChaves } from './chaveiro';

const chave = () => randomBytes(32).toString('base64');

describe('webhook secrets at rest (AES-256-GCM keyring)', () => {
  const [k1, k2] = [`k1:${chave()}`, `k2:${chave()}`];
  const segredo = gerarSegredo();

  it('encrypts under the first key, with a fresh IV each time, and gives the secret back', () => {
    const chaveiro = new Chaveiro(lerChaves(`${k2},${k1}`));
    const [a, b] = [chaveiro.cifrar(segredo), chaveiro.cifrar(segredo)];
    expect(a).toMatch(/^v1:k2:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]+$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain(segredo.slice(6, 20));
    expect(idDaChave(a)).toBe('k2');
    expect(chaveiro.decifrar(a)).toBe(segredo);
  });

  it('decrypts with every key of the ring, and refuses a value under a key it lacks', () => {
    const antigo = new Chaveiro(lerChaves(k1)).cifrar(segredo);
    expect(new Chaveiro(lerChaves(`${k2},${k1}`)).decifrar(antigo)).toBe(segredo);
    expect(() => new Chaveiro(lerChaves(k2)).decifrar(antigo)).toThrow('a webhook secret is encrypted with key "k1", which WEBHOOK_SECRET_KEYS lacks');
  });

  it('refuses a value altered in its ciphertext, its IV or its key id', () => {
    const chaveiro = new Chaveiro(lerChaves(`${k1},k3:${k1.slice(3)}`));
    const [versao, id, iv, cifrado] = chaveiro.cifrar(segredo).split(':');
    const trocado = (texto: string) => `${texto[0] === 'A' ? 'B' : 'A'}${texto.slice(1)}`;
    expect(() => chaveiro.decifrar([versao, id, iv, trocado(cifrado)].join(':'))).toThrow();
    expect(() => chaveiro.decifrar([versao, id, trocado(iv), cifrado].join(':'))).toThrow();
    // Same key bytes under another id: the id is authenticated too.
    expect(() => chaveiro.decifrar([versao, 'k3', iv, cifrado].join(':'))).toThrow();
  });

  it('reads a secret stored before encryption as it is', () => {
    const chaveiro = new Chaveiro(lerChaves(k1));
    expect(idDaChave(segredo)).toBeNull();
    expect(chaveiro.decifrar(segredo)).toBe(segredo);
  });

  it('reads the keyring, naming the entry that is wrong and never its key', () => {
    expect(lerChaves(` ${k1} , ${k2.replace(/=$/, '')}`).map((c) => c.id)).toEqual(['k1', 'k2']);
    expect(lerChaves(`k1:${randomBytes(32).toString('base64url')}`)[0].bytes).toHaveLength(32);
    expect(() => lerChaves('')).toThrow(/at least one key/);
    expect(() => lerChaves(`${k1},k2:${randomBytes(16).toString('base64')}`)).toThrow(/^entry 2 is not <id>:<base64 of 32 bytes>/);
    expect(() => lerChaves(`${k1},segredo`)).toThrow(/^entry 2 /);
    expect(() => lerChaves(`k 1:${chave()}`)).toThrow(/^entry 1 /);
    expect(() => lerChaves(`${k1},k1:${chave()}`)).toThrow('key id "k1" appears twice');
    const erro = (() => { try { lerChaves(`k1:${k1.slice(3, 40)}`); } catch (error) { return (error as Error).message; } })();
    expect(erro).not.toContain(k1.slice(3, 40));
  });
});
