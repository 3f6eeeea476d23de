import { CABECALHOS_DA_PAGINA, paginaNaoEncontrada, paginaRastreio } from './pagina-publica.html';

describe('public tracking page HTML', () => {
  const html = paginaRastreio({
    numeroPedido: '<script>alert(1)</script>',
    volumes: [
      {
        rotulo: 'Caixa "1" & <b>2</b>',
        codigoRastreio: "BR'1",
        status: 'encerrado',
        eventos: [
          { dataHora: '2026-11-21T18:30:00-03:00', descricao: 'Entregue <img src=x onerror=alert(1)>' },
          { dataHora: '2026-11-20T08:05:00Z', descricao: 'Postado' },
        ],
      },
      { rotulo: 'Volume 2', codigoRastreio: null, status: 'ativo', eventos: [] },
    ],
  });

  it('escapes everything a store wrote', () => {
    expect(html).not.toMatch(/<script|<img|<b>/);
    expect(html).toContain('Pedido &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('Caixa &quot;1&quot; &amp; &lt;b&gt;2&lt;/b&gt;');
    expect(html).toContain('BR&#39;1');
  });

  it('shows the moment as the store wrote it, newest first as given, and each volume’s status', () => {
    expect(html.indexOf('21/11/2026 às 18:30')).toBeLessThan(html.indexOf('20/11/2026 às 08:05'));
    expect(html).toContain('Finalizado');
    expect(html).toContain('Em andamento');
    expect(html).toContain('Ainda não há movimentações deste volume.');
  });

  it('is a mobile-friendly document that loads nothing and runs nothing', () => {
    expect(html).toMatch(/<meta name="viewport" content="width=device-width, initial-scale=1">/);
    expect(CABECALHOS_DA_PAGINA['Content-Security-Policy']).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'; .*frame-ancestors 'none'$/);
    expect(CABECALHOS_DA_PAGINA['Referrer-Policy']).toBe('no-referrer');
    expect(html).not.toMatch(/<(script|img|link|iframe)\b|\s(src|href)="/);
  });

  it('has a friendly not-found page', () => {
    expect(paginaNaoEncontrada()).toContain('Não encontramos este rastreamento');
  });
});
