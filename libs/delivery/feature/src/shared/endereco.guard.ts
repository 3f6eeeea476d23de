import { Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';
import { enderecoPermitido, type Rede } from '@trilha/delivery-domain';
import type { EnderecoResolvido } from './nomes-locais';
import { Prazo } from './prazo';

export type { EnderecoResolvido } from './nomes-locais';

/** The host resolves to no address a webhook may be sent to (or to none at all, or not in time). */
export class EnderecoRecusado extends Error {}

/** How long a host's resolution may take, whatever the DNS servers do. */
export const TIMEOUT_DNS_MS = 5_000;
/** c-ares: each query waits this long for an answer, and is sent this many times (UDP loses packets). */
const DNS_POR_TENTATIVA_MS = 1_500;
const DNS_TENTATIVAS = 2;

/**
 * The SSRF guard: a webhook host is resolved (every address) and only the addresses the
 * policy allows are used (`enderecoPermitido`: public unicast, or the operator's allow-list).
 * The webhook client connects to an address returned here, so a connection is only ever
 * opened to an address just checked: a DNS answer that changes between check and connect
 * (DNS rebinding) cannot reach a forbidden address.
 *
 * Names are resolved by c-ares (`dns.promises.Resolver`), on the event loop, not by the C
 * library's `getaddrinfo` on libuv's four shared threads: a store whose DNS never answers holds
 * no thread another store's resolution (or a file read) needs. A resolution ends within
 * TIMEOUT_DNS_MS, or sooner when the caller's signal (the attempt's budget) aborts. c-ares reads
 * no hosts file, so the machine's own names (`/etc/hosts`, given as `nomesLocais`) are answered
 * first, as the C library would. Names are looked up as written (no `search` domains).
 */
export class EnderecoGuard {
  private readonly dns = new Resolver({ timeout: DNS_POR_TENTATIVA_MS, tries: DNS_TENTATIVAS });

  /** `servidoresDns`: `ip` or `ip:port` of the DNS servers to ask; none: the system's (`/etc/resolv.conf`). */
  constructor(
    private readonly redesPermitidas: Rede[],
    servidoresDns: string[],
    private readonly nomesLocais: Map<string, EnderecoResolvido[]>,
  ) {
    if (servidoresDns.length > 0) this.dns.setServers(servidoresDns);
  }

  /** The host's allowed addresses, IPv4 first; throws EnderecoRecusado, or the signal's reason when it aborts first. */
  async resolver(host: string, prazo?: AbortSignal): Promise<EnderecoResolvido[]> {
    const nome = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
    const enderecos = isIP(nome) ? [{ address: nome, family: isIP(nome) }] : (this.nomesLocais.get(nome) ?? (await this.consultarDns(nome, prazo)));
    const permitidos = enderecos.filter((endereco) => enderecoPermitido(endereco.address, this.redesPermitidas));
    if (permitidos.length === 0) {
      // Which addresses, never: a store must not learn what an internal name resolves to.
      throw new EnderecoRecusado(`endereço não permitido: ${nome} não aponta para um endereço público (loopback, rede privada, link-local ou metadados são recusados)`);
    }
    return permitidos;
  }

  private async consultarDns(nome: string, prazo: AbortSignal | undefined): Promise<EnderecoResolvido[]> {
    const limite = new Prazo(TIMEOUT_DNS_MS);
    const semResposta = () => new EnderecoRecusado(`host não resolvido em ${TIMEOUT_DNS_MS / 1000} s: ${nome} (o servidor DNS não respondeu)`);
    let respostas: PromiseSettledResult<string[]>[];
    try {
      respostas = await ate(Promise.allSettled([this.dns.resolve4(nome), this.dns.resolve6(nome)]), prazo ? AbortSignal.any([prazo, limite.signal]) : limite.signal);
    } catch (error) {
      if (limite.signal.aborted && !prazo?.aborted) throw semResposta();
      throw error;
    } finally {
      limite.encerrar();
    }
    const [ipv4, ipv6] = respostas.map((resposta) => (resposta.status === 'fulfilled' ? resposta.value : []));
    const enderecos = [...ipv4.map((address) => ({ address, family: 4 })), ...ipv6.map((address) => ({ address, family: 6 }))];
    if (enderecos.length > 0) return enderecos;
    const codigos = respostas.map((resposta) => (resposta.status === 'rejected' ? (resposta.reason as NodeJS.ErrnoException).code : undefined));
    if (codigos.includes('ETIMEOUT')) throw semResposta();
    throw new EnderecoRecusado(`host não encontrado: ${nome} (${codigos.find(Boolean) ?? 'DNS'})`);
  }
}

/** The promise's outcome, or the signal's reason if it aborts first. */
function ate<T>(promessa: Promise<T>, sinal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const abortar = () => reject(sinal.reason);
    if (sinal.aborted) return abortar();
    sinal.addEventListener('abort', abortar, { once: true });
    promessa.then(resolve, reject).finally(() => sinal.removeEventListener('abort', abortar));
  });
}
