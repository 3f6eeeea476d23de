import { cortarTexto, tamanho } from './cortar';
import { descreverPedido, descreverPedidos, type PedidoRastreado } from './rastreio';

describe('cortarTexto', () => {
  it('counts code points: an astral character (an emoji) is one', () => {
    expect(tamanho('a📦b')).toBe(3);
    expect('a📦b'.length).toBe(4);
  });

  it('leaves a text that fits as it is', () => {
    expect(cortarTexto('Seu pedido saiu para entrega', 28)).toBe('Seu pedido saiu para entrega');
  });

  it('cuts at the last whole word that fits, drops a dangling separator and ends in "…"', () => {
    expect(cortarTexto('Seu pedido saiu para entrega', 20)).toBe('Seu pedido saiu…');
    expect(cortarTexto('volume A: entregue; volume B: em trânsito', 22)).toBe('volume A: entregue…');
    // The room ends exactly before a space: the word before it is whole.
    expect(cortarTexto('Seu pedido saiu para entrega', 16)).toBe('Seu pedido saiu…');
  });

  it('never splits an emoji or an astral character, counting each once', () => {
    const texto = `${'📦'.repeat(10)} chegou`;
    const cortado = cortarTexto(texto, 8);
    expect(cortado).toBe(`${'📦'.repeat(7)}…`);
    expect(tamanho(cortado)).toBe(8);
    // A family emoji is one grapheme of several code points: whole or not at all.
    const familia = '👨‍👩‍👧';
    expect(cortarTexto(`${familia}${familia}`, 7)).toBe(`${familia}…`);
    expect(cortarTexto('𝒜'.repeat(5), 3)).toBe('𝒜𝒜…');
  });

  it('keeps the ending it is given when it fits, else "…"', () => {
    expect(cortarTexto('Pedido 1001: volume A em trânsito para Recife', 36, '… veja https://t')).toBe('Pedido 1001: volume… veja https://t');
    expect(cortarTexto('Pedido 1001: volume A em trânsito para Recife', 5, '… veja https://t')).toBe('Pedi…');
  });
});

describe('descreverPedidos', () => {
  const evento = { dataHora: '2026-03-02T09:00:00-03:00', descricao: 'Em trânsito para Recife 🚚', visivelClienteFinal: true, ordem: 1 };
  const volume = (n: number) => ({ chaveEnvio: `BR${n}`, codigoRastreio: `BR${n}`, codigoEnvio: null, rotulo: `Caixa ${n} ${'🎁 presente frágil '.repeat(12)}`, encerrado: false, eventos: [evento] });
  const pedido = (numeroPedido: string, volumes: number): PedidoRastreado => ({
    idPedido: `p${numeroPedido}`, numeroPedido, tipoPedido: 'envio', pedidoCanal: null, linkRastreio: `https://t/rastreio/${numeroPedido}`,
    volumes: Array.from({ length: volumes }, (_, i) => volume(i + 1)),
  });

  it('gives every order whole when they fit', () => {
    const pedidos = [pedido('1001', 2), pedido('1002', 1)];
    expect(descreverPedidos(pedidos, 4000)).toBe(pedidos.map(descreverPedido).join('\n'));
  });

  it('cuts an order with many volumes and long labels at a word, keeping the link to its tracking page', () => {
    const grande = pedido('1001', 40);
    expect(tamanho(descreverPedido(grande))).toBeGreaterThan(4000);
    const resposta = descreverPedidos([grande], 4000);
    expect(tamanho(resposta)).toBeLessThanOrEqual(4000);
    expect(tamanho(resposta)).toBeGreaterThan(3900);
    expect(resposta).toMatch(/^Pedido 1001: volume Caixa 1 /);
    expect(resposta).toMatch(/[\p{L}\p{N})🎁🚚]… Acompanhe em https:\/\/t\/rastreio\/1001$/u);
    expect(resposta).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });

  it('keeps the orders that fit whole, cuts the next one and leaves out the rest', () => {
    const pequeno = pedido('1001', 1);
    const resposta = descreverPedidos([pequeno, pedido('1002', 40), pedido('1003', 1)], 4000);
    const [primeira, segunda, ...resto] = resposta.split('\n');
    expect(primeira).toBe(descreverPedido(pequeno));
    expect(segunda).toMatch(/^Pedido 1002: .*… Acompanhe em https:\/\/t\/rastreio\/1002$/u);
    expect(resto).toEqual([]);
    expect(tamanho(resposta)).toBeLessThanOrEqual(4000);
  });
});
