import { existsSync, readFileSync } from 'node:fs';
import { isIP } from 'node:net';

export interface EnderecoResolvido {
  address: string;
  family: number;
}

/**
 * The names of a hosts file (`address name alias…` per line, `#` comments), lower-cased, each
 * with its addresses in the file's order. Lines whose first field is not an IP address are
 * ignored, as the C library does.
 */
export function lerArquivoHosts(texto: string): Map<string, EnderecoResolvido[]> {
  const nomes = new Map<string, EnderecoResolvido[]>();
  for (const linha of texto.split('\n')) {
    const [address, ...apelidos] = linha.replace(/#.*/, '').trim().split(/\s+/);
    const family = isIP(address.replace(/%.*$/, ''));
    if (family === 0) continue;
    for (const nome of apelidos.map((apelido) => apelido.toLowerCase())) {
      const enderecos = nomes.get(nome) ?? [];
      if (!enderecos.some((endereco) => endereco.address === address)) enderecos.push({ address, family });
      nomes.set(nome, enderecos);
    }
  }
  return nomes;
}

/**
 * The machine's own names (`/etc/hosts`: `localhost`, and in Kubernetes the pod's name and its
 * `hostAliases`), read once at start-up. Webhook hosts are resolved by c-ares, which reads no
 * hosts file; these names are answered from here first, as the C library's resolver does.
 */
export function nomesLocais(arquivo = '/etc/hosts'): Map<string, EnderecoResolvido[]> {
  return existsSync(arquivo) ? lerArquivoHosts(readFileSync(arquivo, 'utf8')) : new Map();
}
