import { enderecoPermitido, lerRedes } from './endereco';

describe('webhook address policy', () => {
  it.each([
    '127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1',
    '255.255.255.255', '192.0.0.170', '192.0.2.1', '198.18.0.1', '240.0.0.1', 'not-an-ip',
  ])('refuses the IPv4 address %s', (endereco) => {
    expect(enderecoPermitido(endereco, [])).toBe(false);
  });

  it.each([
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fd00:ec2::254', 'unique-local (a cloud metadata address)'],
    ['fc00::1', 'unique-local'],
    ['fe80::1', 'link-local'],
    ['fec0::1', 'site-local (deprecated)'],
    ['ff02::1', 'multicast'],
    ['::7f00:1', 'IPv4-compatible 127.0.0.1'],
    ['::a9fe:a9fe', 'IPv4-compatible 169.254.169.254'],
    ['::808:808', 'IPv4-compatible 8.8.8.8 (the whole ::/96 is deprecated)'],
    ['::ffff:127.0.0.1', 'IPv4-mapped 127.0.0.1'],
    ['::ffff:a9fe:a9fe', 'IPv4-mapped 169.254.169.254'],
    ['::ffff:10.0.0.1', 'IPv4-mapped 10.0.0.1'],
    ['::ffff:0:7f00:1', 'IPv4-translated 127.0.0.1'],
    ['::ffff:0:808:808', 'IPv4-translated 8.8.8.8'],
    ['64:ff9b::7f00:1', 'NAT64 127.0.0.1'],
    ['64:ff9b::a9fe:a9fe', 'NAT64 169.254.169.254'],
    ['64:ff9b::a00:1', 'NAT64 10.0.0.1'],
    ['64:ff9b:1::a9fe:a9fe', 'local-use NAT64'],
    ['64:ff9b:1::808:808', 'local-use NAT64 of a public address'],
    ['2002:7f00:1::', '6to4 of 127.0.0.1'],
    ['2002:a9fe:a9fe::1', '6to4 of 169.254.169.254'],
    ['2002:808:808::1', '6to4 of 8.8.8.8'],
    ['2001:0:a9fe:a9fe::1', 'Teredo'],
    ['2001:2::1', 'benchmarking'],
    ['2001:db8::1', 'documentation'],
    ['3fff::1', 'documentation'],
    ['100::1', 'discard'],
    ['100:0:0:1::1', 'dummy prefix'],
    ['5f00::1', 'segment routing'],
    ['4000::1', 'unassigned, outside 2000::/3'],
  ])('refuses the IPv6 address %s (%s)', (endereco) => {
    expect(enderecoPermitido(endereco, [])).toBe(false);
  });

  it.each(['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '2a00:1450:4001::1', '::ffff:8.8.8.8', '64:ff9b::808:808'])('accepts the public address %s', (endereco) => {
    expect(enderecoPermitido(endereco, [])).toBe(true);
  });

  it('accepts what the operator allowed, and only that', () => {
    const redes = lerRedes('127.0.0.0/8, fd00::/8');
    expect(enderecoPermitido('127.0.0.1', redes)).toBe(true);
    expect(enderecoPermitido('127.9.9.9', redes)).toBe(true);
    expect(enderecoPermitido('::ffff:127.0.0.1', redes)).toBe(true);
    expect(enderecoPermitido('64:ff9b::7f00:1', redes)).toBe(true);
    expect(enderecoPermitido('fd00:ec2::254', redes)).toBe(true);
    expect(enderecoPermitido('::1', redes)).toBe(false);
    expect(enderecoPermitido('::7f00:1', redes)).toBe(false);
    expect(enderecoPermitido('2002:7f00:1::', redes)).toBe(false);
    expect(enderecoPermitido('10.0.0.1', redes)).toBe(false);
    expect(enderecoPermitido('::7f00:1', lerRedes('::/96'))).toBe(true);
  });

  it('reads the allow-list, refusing what is not a CIDR', () => {
    expect(lerRedes('')).toEqual([]);
    expect(lerRedes('10.0.0.0/8')).toHaveLength(1);
    expect(() => lerRedes('10.0.0.0/8,localhost')).toThrow(/"localhost"/);
    expect(() => lerRedes('10.0.0.1')).toThrow(/CIDR/);
  });
});
