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
