import { createCipheriv, createDecipheriv, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';

/** The format's version: a stored secret is `v1:<key id>:<iv>:<ciphertext and tag>`, base64url parts. */
const VERSAO = 'v1';
const ALGORITMO = 'aes-256-gcm';
const BYTES_CHAVE = 32;
const BYTES_IV = 12;
const BYTES_TAG = 16;
const ID_CHAVE = /^[A-Za-z0-9_-]{1,32}$/;
/** Base64 or base64url, padded or not. */
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;

/** One key of the keyring: its id, written into every value it encrypts, and its 32 bytes. */
export interface Chave {
  id: string;
  bytes: Buffer;
}

/**
 * `2026-06:<base64 of 32 bytes>,2026-01:<…>` → the keys, the first one first; throws naming the
 * first entry that is not `id:base64(32 bytes)` (never its key) and a repeated id.
 */
export function lerChaves(texto: string): Chave[] {
  const chaves = texto
    .split(',')
    .map((parte) => parte.trim())
    .filter(Boolean)
    .map((parte, indice) => {
      const [id, base64 = '', ...resto] = parte.split(':');
      const bytes = Buffer.from(base64, 'base64');
      if (resto.length > 0 || !ID_CHAVE.test(id) || !BASE64.test(base64) || bytes.length !== BYTES_CHAVE) {
        throw new Error(`entry ${indice + 1} is not <id>:<base64 of 32 bytes> (id: letters, digits, _ or -, at most 32)`);
      }
      return { id, bytes };
    });
  if (chaves.length === 0) throw new Error('at least one key is required, e.g. k1:$(openssl rand -base64 32)');
  const repetida = chaves.find((chave, indice) => chaves.findIndex((outra) => outra.id === chave.id) !== indice);
  if (repetida) throw new Error(`key id "${repetida.id}" appears twice`);
  return chaves;
}

/**
 * The webhook signing secrets at rest: AES-256-GCM under the keyring's first key, with a random
 * 96-bit IV per value; the version and key id are authenticated with it (GCM's additional data),
 * so neither can be altered unseen. Every key of the ring decrypts, so a key is rotated by adding
 * the new one first, re-encrypting, then dropping the old one. A value that is not in this
 * format is a secret stored before encryption and is read as it is.
 */
export class Chaveiro {
  /** The keys as KeyObjects, made once: Node.js 24 takes several times longer to accept a Buffer as a key than a KeyObject. */
  private readonly porId: Map<string, KeyObject>;

  constructor(private readonly chaves: Chave[]) {
    if (chaves.length === 0) throw new Error('a keyring needs a key');
    this.porId = new Map(chaves.map((chave) => [chave.id, createSecretKey(chave.bytes)]));
  }

  /** The id of the key that encrypts. */
  get idAtual(): string {
    return this.chaves[0].id;
  }

  cifrar(segredo: string): string {
    const { id } = this.chaves[0];
    const iv = randomBytes(BYTES_IV);
    const cifra = createCipheriv(ALGORITMO, this.porId.get(id)!, iv).setAAD(Buffer.from(`${VERSAO}:${id}`));
    const cifrado = Buffer.concat([cifra.update(segredo, 'utf8'), cifra.final(), cifra.getAuthTag()]);
    return [VERSAO, id, iv.toString('base64url'), cifrado.toString('base64url')].join(':');
  }

  /** The secret of a stored value; throws when its key is not in the ring or the value was altered. */
  decifrar(guardado: string): string {
    const id = idDaChave(guardado);
    if (id === null) return guardado;
    const chave = this.porId.get(id);
    if (!chave) throw new Error(`a webhook secret is encrypted with key "${id}", which WEBHOOK_SECRET_KEYS lacks`);
    const [, , iv, cifrado] = guardado.split(':');
    const dados = Buffer.from(cifrado, 'base64url');
    const decifra = createDecipheriv(ALGORITMO, chave, Buffer.from(iv, 'base64url'), { authTagLength: BYTES_TAG })
      .setAAD(Buffer.from(`${VERSAO}:${id}`))
      .setAuthTag(dados.subarray(dados.length - BYTES_TAG));
    return Buffer.concat([decifra.update(dados.subarray(0, dados.length - BYTES_TAG)), decifra.final()]).toString('utf8');
  }

  /** Whether the ring holds this key. */
  tem(id: string): boolean {
    return this.porId.has(id);
  }
}

/** The key id of an encrypted value; null for a value stored in clear. */
export function idDaChave(guardado: string): string | null {
  const partes = guardado.split(':');
  return partes.length === 4 && partes[0] === VERSAO ? partes[1] : null;
}
