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

/** IANA's global unicast space (2000::/3): every other IPv6 address is special-purpose or unassigned. */
const UNICAST_GLOBAL_IPV6 = ipaddr.IPv6.parseCIDR('2000::/3');

/**
 * IPv6 prefixes whose last 32 bits are the IPv4 address a connection reaches: IPv4-mapped
 * (`::ffff:0:0/96`, the kernel's dual-stack sockets) and NAT64's well-known prefix
 * (`64:ff9b::/96`, RFC 6052, what DNS64 answers on an IPv6-only network).
 */
const IPV4_EMBUTIDO = ['::ffff:0:0/96', '64:ff9b::/96'].map((cidr) => ipaddr.IPv6.parseCIDR(cidr));

/** The address a connection to `ip` reaches: the IPv4 address an IPv4-mapped or NAT64 address carries, or `ip`. */
function destino(ip: ipaddr.IPv4 | ipaddr.IPv6): ipaddr.IPv4 | ipaddr.IPv6 {
  if (ip.kind() === 'ipv4' || !IPV4_EMBUTIDO.some(([rede, bits]) => ip.match(rede, bits))) return ip;
  return new ipaddr.IPv4(ip.toByteArray().slice(12));
}

const naRede = (ip: ipaddr.IPv4 | ipaddr.IPv6, [rede, bits]: Rede) => rede.kind() === ip.kind() && ip.match(rede, bits);

/**
 * Whether a webhook may be sent to this IP address: only public unicast addresses, unless the
 * operator allowed its network.
 *
 * - IPv4: loopback, private (RFC 1918), link-local (so the cloud metadata address
 *   169.254.169.254), carrier-grade NAT, multicast, broadcast, reserved, documentation and
 *   unspecified addresses are refused (ipaddr.js's special ranges).
 * - IPv4-mapped (`::ffff:a9fe:a9fe`) and NAT64 (`64:ff9b::a9fe:a9fe`) addresses are judged as
 *   the IPv4 address they reach, allow-list included.
 * - Any other IPv6 address must be in 2000::/3 and in none of IANA's special-purpose blocks
 *   that are not global unicast. So loopback, unspecified, unique-local, link-local
 *   (fd00:ec2::254 and fe80::), multicast, and every other form that carries an IPv4 address are
 *   refused whatever that address: IPv4-compatible `::/96` (`::7f00:1`), IPv4-translated
 *   `::ffff:0:0:0/96`, local-use NAT64 `64:ff9b:1::/48`, 6to4 `2002::/16`, Teredo and the IETF
 *   protocol block `2001::/23`, documentation, discard and segment-routing prefixes.
 */
export function enderecoPermitido(endereco: string, permitidas: Rede[]): boolean {
  if (!ipaddr.isValid(endereco)) return false;
  const ip = ipaddr.parse(endereco);
  const alcancado = destino(ip);
  if (permitidas.some((rede) => naRede(ip, rede) || naRede(alcancado, rede))) return true;
  if (alcancado.range() !== 'unicast') return false;
  return alcancado.kind() === 'ipv4' || alcancado.match(UNICAST_GLOBAL_IPV6);
}
