import { FaqIndex } from './faq-index';
import { dataHoraLegivel, descreverPedido, falaDePedido, identificadoresCandidatos, ultimoEventoVisivel, type PedidoRastreado } from './rastreio';
import { responder } from './resposta';

const evento = (dataHora: string, descricao: string, visivelClienteFinal = true, ordem = 0) => ({ dataHora, descricao, visivelClienteFinal, ordem });

const pedido: PedidoRastreado = {
  idPedido: 'p1', numeroPedido: '1001', tipoPedido: 'envio', pedidoCanal: 'MLB-77', linkRastreio: 'https://t/rastreio/abc',
  volumes: [{
    chaveEnvio: 'BR1', codigoRastreio: 'BR1', codigoEnvio: null, rotulo: null, encerrado: false,
    eventos: [
      evento('2026-03-01T10:00:00-03:00', 'Pedido postado', true, 1),
      evento('2026-03-02T09:00:00-03:00', 'Em trânsito para Recife', true, 2),
      evento('2026-03-03T08:00:00-03:00', 'Avaria na embalagem: reembalar', false, 3),
    ],
  }],
};

describe('rastreio', () => {
  it('finds identifier-like words in a message, upper-cased, without punctuation', () => {
    expect(identificadoresCandidatos('Onde está meu pedido nº 1001? E o código br123456789br.')).toEqual(['1001', 'BR123456789BR']);
    expect(identificadoresCandidatos('pedido #MLB-77, por favor')).toEqual(['MLB-77']);
    expect(identificadoresCandidatos('bom dia, tudo bem?')).toEqual([]);
    expect(identificadoresCandidatos('objeto NO123456BR')).toEqual(['NO123456BR']);
  });

  it('knows when a message is about an order', () => {
    expect(falaDePedido('Cadê minha ENCOMENDA?')).toBe(true);
    expect(falaDePedido('Código de rastreio 123')).toBe(true);
    expect(falaDePedido('meu CEP é 01310-100, qual o prazo de entrega?')).toBe(false);
  });

  it('picks the latest customer-visible event, never an internal one', () => {
    expect(ultimoEventoVisivel(pedido.volumes[0].eventos)?.descricao).toBe('Em trânsito para Recife');
  });

  it('orders by instant across offsets, then by registration', () => {
    expect(ultimoEventoVisivel([evento('2026-03-02T12:00:00Z', 'b', true, 1), evento('2026-03-02T10:00:00-03:00', 'a', true, 2)])?.descricao).toBe('a');
    expect(ultimoEventoVisivel([evento('2026-03-02T12:00:00Z', 'b', true, 2), evento('2026-03-02T12:00:00Z', 'a', true, 1)])?.descricao).toBe('b');
    expect(ultimoEventoVisivel([evento('2026-03-02T12:00:00Z', 'interno', false, 1)])).toBeNull();
  });

  it('tells the order’s state per volume in the event’s own time', () => {
    expect(dataHoraLegivel('2026-03-02T09:00:00-03:00')).toBe('02/03/2026 às 09:00');
    expect(descreverPedido(pedido)).toBe('Pedido 1001: Em trânsito para Recife (02/03/2026 às 09:00). Acompanhe em https://t/rastreio/abc');
    const doisVolumes = { ...pedido, tipoPedido: 'reversa' as const, volumes: [pedido.volumes[0], { ...pedido.volumes[0], chaveEnvio: 'NF2', codigoRastreio: null, rotulo: 'Caixa 2', encerrado: true, eventos: [] }] };
    expect(descreverPedido(doisVolumes)).toBe(
      'Devolução do pedido 1001: volume BR1: Em trânsito para Recife (02/03/2026 às 09:00); volume Caixa 2: ainda sem movimentação, entrega encerrada. Acompanhe em https://t/rastreio/abc',
    );
  });
});

describe('the agent’s answer', () => {
  const faq = new FaqIndex([{ pergunta: 'Quais são as formas de pagamento?', resposta: 'Cartão, boleto e Pix.' }]);
  const nada = { pedidos: [], pedidoNaoEncontrado: false, faq: null };

  it('answers with the order when it has the rastreio skill', () => {
    const resposta = responder({ habilidades: ['rastreio', 'faq'] }, { ...nada, pedidos: [pedido] }, 4000);
    expect(resposta).toEqual({
      resposta: descreverPedido(pedido),
      intencao: 'rastreio',
      referencias: [{ tipo: 'pedido', idPedido: 'p1', numeroPedido: '1001', tipoPedido: 'envio', linkRastreio: 'https://t/rastreio/abc' }],
    });
    expect(resposta.resposta).not.toMatch(/Avaria/);
  });

  it('says an order was not found, offering a human', () => {
    const resposta = responder({ habilidades: ['rastreio', 'faq'] }, { ...nada, pedidoNaoEncontrado: true }, 4000);
    expect(resposta).toMatchObject({ intencao: 'rastreio', referencias: [] });
    expect(resposta.resposta).toMatch(/Não encontrei nenhum pedido.*atendente humano/);
  });

  it('answers from the FAQ, with the entry as reference', () => {
    const match = faq.melhor('vocês aceitam pix?');
    expect(responder({ habilidades: ['faq'] }, { ...nada, faq: match }, 4000)).toEqual({
      resposta: 'Cartão, boleto e Pix.',
      intencao: 'faq',
      referencias: [{ tipo: 'faq', pergunta: 'Quais são as formas de pagamento?', confianca: 0.5 }],
    });
  });

  it('falls back to offering a human', () => {
    expect(responder({ habilidades: ['faq'] }, { ...nada, pedidos: [pedido] }, 4000)).toMatchObject({ intencao: 'desconhecida', referencias: [] });
    expect(responder({ habilidades: ['rastreio', 'faq'] }, nada, 4000).resposta).toMatch(/atendente humano/);
  });
});
