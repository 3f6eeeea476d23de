import { ehUuid, ID_MAX, novoId, novoIdCompacto, UUID_PATTERN } from './ids';

const CANONICO = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The Unix time in milliseconds an id carries in its first 48 bits. */
const milissegundos = (id: string): number => parseInt(id.replace(/-/g, '').slice(0, 12), 16);

/**
 * Runs `fn` with a fake clock set to `agora` and a fresh copy of the library (the `uuid` package
 * keeps its last time per process: a copy loaded earlier would carry on from the real clock).
 */
function comRelogio(agora: string, fn: (gerar: () => string) => void): void {
  jest.useFakeTimers({ now: new Date(agora) });
  try {
    jest.isolateModules(() => {
      const { novoId: gerar } = jest.requireActual<typeof import('./ids')>('./ids');
      fn(gerar);
    });
  } finally {
    jest.useRealTimers();
  }
}

describe('novoId', () => {
  it('is a UUID version 7 in the canonical form: 36 lowercase characters with hyphens, RFC 9562 variant', () => {
    for (let i = 0; i < 100; i += 1) {
      const id = novoId();
      expect(id).toMatch(CANONICO);
      expect(id).toHaveLength(36);
      expect(id[14]).toBe('7');
    }
  });

  it('carries the time of its creation in its first 48 bits', () => {
    const antes = Date.now();
    const id = novoId();
    const ms = milissegundos(id);
    expect(ms).toBeGreaterThanOrEqual(antes);
    expect(ms).toBeLessThanOrEqual(Date.now());
  });

  it('sorts by creation, within a millisecond and across milliseconds', () => {
    comRelogio('2026-03-01T10:00:00.000Z', (gerar) => {
      const ids: string[] = [];
      for (let ms = 0; ms < 5; ms += 1) {
        for (let i = 0; i < 50; i += 1) ids.push(gerar());
        jest.setSystemTime(Date.now() + 1);
      }
      expect(new Set(ids.map(milissegundos))).toEqual(new Set([0, 1, 2, 3, 4].map((ms) => Date.parse('2026-03-01T10:00:00.000Z') + ms)));
      expect([...ids].sort()).toEqual(ids);
      expect(new Set(ids).size).toBe(ids.length);
    });
  });

  it('sorts by creation when the clock has moved on by a day', () => {
    comRelogio('2026-03-01T10:00:00.000Z', (gerar) => {
      const primeiro = gerar();
      jest.setSystemTime(new Date('2026-03-02T10:00:00.000Z'));
      expect(gerar() > primeiro).toBe(true);
    });
  });
});

describe('novoIdCompacto (idPedido)', () => {
  it('is the same UUIDv7 without hyphens: 32 lowercase hex characters, within the 32 idPedido allows', () => {
    for (let i = 0; i < 100; i += 1) {
      const id = novoIdCompacto();
      expect(id).toMatch(/^[0-9a-f]{32}$/);
      expect(id.length).toBeLessThanOrEqual(32);
      expect(id[12]).toBe('7');
      const canonico = `${id.slice(0, 8)}-${id.slice(8, 12)}-${id.slice(12, 16)}-${id.slice(16, 20)}-${id.slice(20)}`;
      expect(canonico).toMatch(CANONICO);
    }
  });

  it('sorts by creation too', () => {
    const ids = Array.from({ length: 200 }, () => novoIdCompacto());
    expect([...ids].sort()).toEqual(ids);
  });
});

describe('ehUuid', () => {
  it('accepts any UUID in text, the platform’s and others, in either case', () => {
    expect(ehUuid(novoId())).toBe(true);
    expect(ehUuid('3F2504E0-4F89-11D3-9A0C-0305E82C3301')).toBe(true);
    expect(ehUuid('00000000-0000-0000-0000-000000000000')).toBe(true);
    expect(UUID_PATTERN.test(novoId())).toBe(true);
  });

  it('refuses what a uuid cast would refuse', () => {
    for (const texto of ['', novoIdCompacto(), `${novoId()}0`, ` ${novoId()}`, 'g'.repeat(8) + '-0000-0000-0000-000000000000', '01JDQ3Z8K6V0Q4M9X2T7R5B1NC']) {
      expect(ehUuid(texto)).toBe(false);
    }
  });
});

describe('ID_MAX', () => {
  it('leaves room for every form the platform mints', () => {
    expect(novoId().length).toBeLessThanOrEqual(ID_MAX);
    expect(novoIdCompacto().length).toBeLessThanOrEqual(ID_MAX);
  });
});
