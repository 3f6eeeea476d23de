import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { Chaveiro } from '@trilha/delivery-domain';
import { deliverySettings } from './delivery.options';

const WEBHOOK_SECRET_KEYS = `k1:${randomBytes(32).toString('base64')}`;
/** The settings with `env` over the one required variable. */
const schema = { parse: (env: object) => z.object(deliverySettings).parse({ WEBHOOK_SECRET_KEYS, ...env }), safeParse: (env: object) => z.object(deliverySettings).safeParse({ WEBHOOK_SECRET_KEYS, ...env }) };

describe('WEBHOOK_DNS_SERVERS', () => {
  it('is a comma-separated list of ip or ip:port, empty (the system’s servers) by default', () => {
    expect(schema.parse({}).WEBHOOK_DNS_SERVERS).toEqual([]);
    expect(schema.parse({ WEBHOOK_DNS_SERVERS: ' 10.0.0.2, 127.0.0.1:5353,[::1]:53 ' }).WEBHOOK_DNS_SERVERS).toEqual(['10.0.0.2', '127.0.0.1:5353', '[::1]:53']);
  });

  it('refuses what is not an address, naming it', () => {
    const result = schema.safeParse({ WEBHOOK_DNS_SERVERS: '10.0.0.2,dns.example' });
    expect(result.success).toBe(false);
    expect(result.error?.issues).toEqual([expect.objectContaining({ path: ['WEBHOOK_DNS_SERVERS'], message: expect.stringContaining('dns.example') })]);
  });
});

describe('WEBHOOK_DISABLE_AFTER and WEBHOOK_SECRET_OVERLAP', () => {
  it('are durations, 5 days and 24 h by default', () => {
    expect(schema.parse({})).toMatchObject({ WEBHOOK_DISABLE_AFTER: 432_000_000, WEBHOOK_SECRET_OVERLAP: 86_400_000 });
    expect(schema.parse({ WEBHOOK_DISABLE_AFTER: '12h', WEBHOOK_SECRET_OVERLAP: '30m' })).toMatchObject({ WEBHOOK_DISABLE_AFTER: 43_200_000, WEBHOOK_SECRET_OVERLAP: 1_800_000 });
  });

  it('refuse what is not a duration, naming the variable', () => {
    const result = schema.safeParse({ WEBHOOK_DISABLE_AFTER: 'cinco dias', WEBHOOK_SECRET_OVERLAP: '0h' });
    expect(result.error?.issues.map((issue) => issue.path[0]).sort()).toEqual(['WEBHOOK_DISABLE_AFTER', 'WEBHOOK_SECRET_OVERLAP']);
  });
});

describe('WEBHOOK_SECRET_KEYS', () => {
  it('is required, and a keyring whose first key encrypts', () => {
    expect(z.object(deliverySettings).safeParse({}).error?.issues.map((issue) => issue.path[0])).toEqual(['WEBHOOK_SECRET_KEYS']);
    const chaveiro = schema.parse({ WEBHOOK_SECRET_KEYS: `k2:${randomBytes(32).toString('base64')},${WEBHOOK_SECRET_KEYS}` }).WEBHOOK_SECRET_KEYS;
    expect(chaveiro).toBeInstanceOf(Chaveiro);
    expect(chaveiro.idAtual).toBe('k2');
  });

  it('refuses a malformed key, naming the variable and not the key', () => {
    const curta = randomBytes(16).toString('base64');
    const result = schema.safeParse({ WEBHOOK_SECRET_KEYS: `k1:${curta}` });
    expect(result.error?.issues).toEqual([expect.objectContaining({ path: ['WEBHOOK_SECRET_KEYS'], message: expect.stringMatching(/^entry 1 is not/) })]);
    expect(JSON.stringify(result.error?.issues)).not.toContain(curta);
  });
});
