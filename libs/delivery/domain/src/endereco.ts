import ipaddr from 'ipaddr.js';

/** A network of the operator's allow-list (`WEBHOOK_ALLOWED_CIDRS`). */
export type Rede = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** `127.0.0.0/8, ::1/128` → networks; throws naming the first invalid one. An empty text is an empty list. */
export function lerRedes(texto: string): Rede[] {
  return texto
    .split(',')
    .map((parte) => parte.trim())
    .filter(Boolean)
    .map((cidr) => {
      if (!ipaddr.isValidCIDR(cidr)) throw new Error(`"${cidr}" is not a CIDR like 127.0.0.0/8`);
      return ipaddr.parseCIDR(cidr);
    });
}

/**
 * Whether a webhook may be sent to this IP address: only public unicast addresses, unless the
 * operator allowed its network. Loopback, private (RFC 1918), unique-local, link-local (and so
 * the cloud metadata addresses 169.254.169.254 and fd00:ec2::254), carrier-grade NAT,
 * multicast, reserved and unspecified addresses are refused, and so are IPv6 forms that carry
 * an IPv4 address (IPv4-mapped addresses are judged as the IPv4 address they carry; NAT64,
 * 6to4 and Teredo are refused).
 */
export function enderecoPermitido(endereco: string, permitidas: Rede[]): boolean {
  if (!ipaddr.isValid(endereco)) return false;
  const ip = ipaddr.process(endereco);
  if (permitidas.some(([rede, bits]) => rede.kind() === ip.kind() && ip.match(rede, bits))) return true;
  return ip.range() === 'unicast';
}
