import { enderecoPermitido, lerRedes } from './endereco';

describe('webhook address policy', () => {
  it.each([
    '127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1',
    '255.255.255.255', '::1', '::', 'fd00:ec2::254', 'fc00::1', 'fe80::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1',
    '64:ff9b::a00:1', '2002:a00:1::', 'not-an-ip',
  ])('refuses %s', (endereco) => {
    expect(enderecoPermitido(endereco, [])).toBe(false);
  });

  it.each(['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('accepts the public address %s', (endereco) => {
    expect(enderecoPermitido(endereco, [])).toBe(true);
  });

  it('accepts what the operator allowed, and only that', () => {
    const redes = lerRedes('127.0.0.0/8, fd00::/8');
    expect(enderecoPermitido('127.0.0.1', redes)).toBe(true);
    expect(enderecoPermitido('127.9.9.9', redes)).toBe(true);
    expect(enderecoPermitido('::ffff:127.0.0.1', redes)).toBe(true);
    expect(enderecoPermitido('fd00:ec2::254', redes)).toBe(true);
    expect(enderecoPermitido('::1', redes)).toBe(false);
    expect(enderecoPermitido('10.0.0.1', redes)).toBe(false);
  });

  it('reads the allow-list, refusing what is not a CIDR', () => {
    expect(lerRedes('')).toEqual([]);
    expect(lerRedes('10.0.0.0/8')).toHaveLength(1);
    expect(() => lerRedes('10.0.0.0/8,localhost')).toThrow(/"localhost"/);
    expect(() => lerRedes('10.0.0.1')).toThrow(/CIDR/);
  });
});
