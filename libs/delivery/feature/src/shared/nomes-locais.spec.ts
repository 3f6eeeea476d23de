import { lerArquivoHosts } from './nomes-locais';

describe('lerArquivoHosts', () => {
  it('maps every name and alias to its addresses, skipping comments and malformed lines', () => {
    const nomes = lerArquivoHosts(
      ['# comentário', '127.0.0.1\tlocalhost  Loja.Local # fim', '::1 localhost ip6-localhost', '', 'não-é-ip algum-nome', '10.0.0.5 interno', '127.0.0.1 localhost'].join('\n'),
    );
    expect([...nomes]).toEqual([
      ['localhost', [{ address: '127.0.0.1', family: 4 }, { address: '::1', family: 6 }]],
      ['loja.local', [{ address: '127.0.0.1', family: 4 }]],
      ['ip6-localhost', [{ address: '::1', family: 6 }]],
      ['interno', [{ address: '10.0.0.5', family: 4 }]],
    ]);
  });
});
