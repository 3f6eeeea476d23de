import { lookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { enderecoPermitido, type Rede } from '@trilha/delivery-domain';

/** The host resolves to no address a webhook may be sent to (or to none at all). */
export class EnderecoRecusado extends Error {}

export interface EnderecoResolvido {
  address: string;
  family: number;
}

/**
 * The SSRF guard: a webhook host is resolved (every address) and only the addresses the
 * policy allows are used (`enderecoPermitido`: public unicast, or the operator's allow-list).
 * It runs at registration and before every delivery, and again as the TLS connection's own
 * lookup, so a connection is only ever opened to an address it has just checked: a DNS answer
 * that changes between check and connect (DNS rebinding) cannot reach a forbidden address.
 */
export class EnderecoGuard {
  constructor(private readonly redesPermitidas: Rede[]) {}

  async resolver(host: string): Promise<EnderecoResolvido[]> {
    const nome = host.replace(/^\[(.*)\]$/, '$1');
    let enderecos: EnderecoResolvido[];
    if (isIP(nome)) {
      enderecos = [{ address: nome, family: isIP(nome) }];
    } else {
      try {
        enderecos = await lookup(nome, { all: true, verbatim: true });
      } catch (error) {
        throw new EnderecoRecusado(`host não encontrado: ${nome} (${(error as NodeJS.ErrnoException).code ?? 'DNS'})`);
      }
    }
    const permitidos = enderecos.filter((endereco) => enderecoPermitido(endereco.address, this.redesPermitidas));
    if (permitidos.length === 0) {
      throw new EnderecoRecusado(`endereço não permitido: ${nome} resolve para ${enderecos.map((e) => e.address).join(', ')} (loopback, rede privada, link-local ou metadados)`);
    }
    return permitidos;
  }

  /** `lookup` for net/tls connect: resolves and checks again, and connects only to a checked address. */
  readonly lookup: LookupFunction = (hostname, options, callback) => {
    this.resolver(hostname).then(
      (enderecos) => {
        const familia = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
        const escolhidos = familia ? enderecos.filter((endereco) => endereco.family === familia) : enderecos;
        if (escolhidos.length === 0) return callback(new EnderecoRecusado(`nenhum endereço IPv${familia} permitido para ${hostname}`), '', 0);
        if (options.all) return (callback as unknown as (error: null, addresses: EnderecoResolvido[]) => void)(null, escolhidos);
        callback(null, escolhidos[0].address, escolhidos[0].family);
      },
      (error: Error) => callback(error as NodeJS.ErrnoException, '', 0),
    );
  };
}
