import { z } from 'zod';
import { deliverySettings } from './delivery.options';

const schema = z.object(deliverySettings);

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
