import type { Agente } from './agente';
import type { FaqMatch } from './faq-index';
import { descreverPedidos, type PedidoRastreado, type TipoPedido } from './rastreio';

export const INTENCOES = ['rastreio', 'faq', 'desconhecida'] as const;
export type Intencao = (typeof INTENCOES)[number];

export type Referencia =
  | { tipo: 'pedido'; idPedido: string; numeroPedido: string; tipoPedido: TipoPedido; linkRastreio: string }
  | { tipo: 'faq'; pergunta: string; confianca: number };

export interface RespostaDoAgente {
  resposta: string;
  intencao: Intencao;
  referencias: Referencia[];
}

export const OFERTA_DE_ATENDENTE = 'Se preferir, posso chamar um atendente humano da loja para continuar a conversa.';

export interface AchadosDoAgente {
  /** The store's orders named in the message (only when the agent has `rastreio`). */
  pedidos: PedidoRastreado[];
  /** Whether the message names something like an order that matched none of the store's. */
  pedidoNaoEncontrado: boolean;
  /** The best FAQ entry above the threshold (only when the agent has `faq`). */
  faq: FaqMatch | null;
}

/**
 * The agent's answer: the named orders' tracking first, then the FAQ; otherwise a fallback
 * that offers a human. It has at most `max` code points (what a conversation's message and its
 * event hold): only the orders' tracking can be longer, and is cut (`descreverPedidos`); an FAQ
 * answer is shorter by the agent's own contract.
 */
export function responder(agente: Pick<Agente, 'habilidades'>, achado: AchadosDoAgente, max: number): RespostaDoAgente {
  const rastreia = agente.habilidades.includes('rastreio');
  if (rastreia && achado.pedidos.length > 0) {
    return {
      resposta: descreverPedidos(achado.pedidos, max),
      intencao: 'rastreio',
      referencias: achado.pedidos.map(({ idPedido, numeroPedido, tipoPedido, linkRastreio }) => ({ tipo: 'pedido', idPedido, numeroPedido, tipoPedido, linkRastreio })),
    };
  }
  if (rastreia && achado.pedidoNaoEncontrado) {
    return {
      resposta: `Não encontrei nenhum pedido desta loja com esse número ou código. Confira o número do pedido ou o código de rastreio e me envie de novo. ${OFERTA_DE_ATENDENTE}`,
      intencao: 'rastreio',
      referencias: [],
    };
  }
  if (agente.habilidades.includes('faq') && achado.faq) {
    return {
      resposta: achado.faq.entrada.resposta,
      intencao: 'faq',
      referencias: [{ tipo: 'faq', pergunta: achado.faq.entrada.pergunta, confianca: Math.round(achado.faq.confianca * 100) / 100 }],
    };
  }
  return { resposta: `Desculpe, não sei responder a isso. ${OFERTA_DE_ATENDENTE}`, intencao: 'desconhecida', referencias: [] };
}
