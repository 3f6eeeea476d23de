import { cortarTexto, tamanho } from './cortar';
import { normalizar } from './faq-index';

/**
 * The `rastreio` skill's pure part: which words of a message may be an order number, a
 * channel order number or a tracking code, and how an order's tracking is told to a customer.
 */

/** An order's type as the tracking events say it: a shipment to the customer, or a return from them. */
export type TipoPedido = 'envio' | 'reversa';

/** What the agent knows of one order of the store, from the tracking events it consumed. */
export interface PedidoRastreado {
  idPedido: string;
  numeroPedido: string;
  tipoPedido: TipoPedido;
  pedidoCanal: string | null;
  linkRastreio: string;
  volumes: VolumeRastreado[];
}

export interface VolumeRastreado {
  chaveEnvio: string;
  codigoRastreio: string | null;
  codigoEnvio: string | null;
  rotulo: string | null;
  encerrado: boolean;
  eventos: EventoRastreado[];
}

export interface EventoRastreado {
  dataHora: string;
  descricao: string;
  visivelClienteFinal: boolean;
  /** Order of registration: breaks ties between events of the same instant. */
  ordem: number;
}

const MAX_CANDIDATOS = 20;
const MAX_IDENTIFICADOR = 100;

/**
 * Words of a message that could identify an order: with at least one digit (order numbers and
 * tracking codes have them; ordinary words do not), trimmed of punctuation, upper-cased (the
 * lookup ignores case).
 */
export function identificadoresCandidatos(mensagem: string): string[] {
  const candidatos = new Set<string>();
  for (const palavra of mensagem.split(/[\s,;:!?()[\]{}"'“”‘’<>]+/)) {
    const limpa = palavra.replace(/^(n[º°]\.?|#)+/i, '').replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
    if (limpa.length === 0 || limpa.length > MAX_IDENTIFICADOR || !/\d/.test(limpa)) continue;
    candidatos.add(limpa.toUpperCase());
    if (candidatos.size === MAX_CANDIDATOS) break;
  }
  return [...candidatos];
}

const PALAVRAS_DE_PEDIDO = /\b(pedidos?|rastreio|rastreamento|rastrear|encomendas?|codigo|compras?|envio|objeto|pacotes?)\b/;

/** Whether a message is about an order, so that an identifier that matched nothing deserves a "not found". */
export function falaDePedido(mensagem: string): boolean {
  return PALAVRAS_DE_PEDIDO.test(normalizar(mensagem));
}

/** The latest event a customer may see; internal events never count, whatever their date. */
export function ultimoEventoVisivel(eventos: readonly EventoRastreado[]): EventoRastreado | null {
  let ultimo: EventoRastreado | null = null;
  for (const evento of eventos) {
    if (!evento.visivelClienteFinal) continue;
    if (!ultimo || depois(evento, ultimo)) ultimo = evento;
  }
  return ultimo;
}

function depois(a: EventoRastreado, b: EventoRastreado): boolean {
  const ta = Date.parse(a.dataHora);
  const tb = Date.parse(b.dataHora);
  if (!Number.isNaN(ta) && !Number.isNaN(tb) && ta !== tb) return ta > tb;
  return a.ordem > b.ordem;
}

/** "2026-03-10T14:30:00-03:00" → "10/03/2026 às 14:30", in the event's own offset. */
export function dataHoraLegivel(dataHora: string): string {
  const partes = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})/.exec(dataHora);
  return partes ? `${partes[3]}/${partes[2]}/${partes[1]} às ${partes[4]}:${partes[5]}` : dataHora;
}

function nomeDoVolume(volume: VolumeRastreado): string {
  return volume.rotulo || volume.codigoEnvio || volume.codigoRastreio || volume.chaveEnvio;
}

/** One order's tracking for a customer: the latest customer-visible event of each volume. */
export function descreverPedido(pedido: PedidoRastreado): string {
  const titulo = `${pedido.tipoPedido === 'reversa' ? 'Devolução do pedido' : 'Pedido'} ${pedido.numeroPedido}`;
  const linhas = pedido.volumes.map((volume) => {
    const evento = ultimoEventoVisivel(volume.eventos);
    const situacao = evento ? `${evento.descricao} (${dataHoraLegivel(evento.dataHora)})` : 'ainda sem movimentação';
    const prefixo = pedido.volumes.length > 1 ? `volume ${nomeDoVolume(volume)}: ` : '';
    return `${prefixo}${situacao}${volume.encerrado ? ', entrega encerrada' : ''}`;
  });
  const corpo = linhas.length === 0 ? 'ainda sem movimentação' : linhas.join('; ');
  return `${titulo}: ${corpo}. ${acompanhe(pedido)}`;
}

const acompanhe = (pedido: PedidoRastreado) => `Acompanhe em ${pedido.linkRastreio}`;

/**
 * The named orders' tracking, one line each, in at most `max` code points: the orders that fit
 * whole, then the first that does not, cut at a word and ending in "… Acompanhe em <link>" so
 * its tracking page is still one tap away (an order with many volumes can tell more than a
 * message may hold); the orders after it are left out.
 */
export function descreverPedidos(pedidos: readonly PedidoRastreado[], max: number): string {
  const linhas: string[] = [];
  let usados = 0;
  for (const pedido of pedidos) {
    const separador = linhas.length > 0 ? 1 : 0;
    const linha = descreverPedido(pedido);
    if (usados + separador + tamanho(linha) <= max) {
      linhas.push(linha);
      usados += separador + tamanho(linha);
      continue;
    }
    const cortada = cortarTexto(linha, max - usados - separador, `… ${acompanhe(pedido)}`);
    if (cortada.length > 0) linhas.push(cortada);
    break;
  }
  return linhas.join('\n');
}
