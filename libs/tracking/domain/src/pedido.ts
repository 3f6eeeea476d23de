import { hashEvento } from './hash-evento';
import type { DadosPedido, Pedido, PedidoEvent, PedidoRef, Situacao, TipoPedido } from './eventos';
import { evolveVolumes, volumeDoEvento, type Volume } from './volumes';

/**
 * The order (pedido) aggregate: one event stream per order, `pedido-<idPedido>`, holding the
 * order and its volumes with their tracking events. Pure decide/evolve, no I/O: ids, tokens and
 * the clock come in with the command.
 */

/** The type of an order whose request leaves it out, and the one that wins a tie between types. */
export const TIPO_PEDIDO_PADRAO: TipoPedido = 'envio';
/** The situation of an order whose request leaves it out. */
export const SITUACAO_PADRAO: Situacao = 'novo';

export interface PedidoState {
  pedido: Pedido | null;
  volumes: Volume[];
}

/** The identity a command gives an order it creates (the stream's id, a fresh public-page token). */
export interface NovoPedido {
  idPedido: string;
  tokenRastreio: string;
  linkRastreio: string;
}

export interface NovoEvento {
  numeroPedido: string;
  tipoPedido: TipoPedido;
  pedidoCanal: string | null;
  codigoRastreio: string | null;
  chaveNFe: string | null;
  identificador: string | null;
  codigoEnvio: string | null;
  rotulo: string | null;
  dataHora: string;
  descricao: string;
  sigla: string;
  visivelClienteFinal: boolean;
  encerraVolume: boolean;
  origem: string;
}

export interface Correcao {
  dataHora?: string;
  descricao?: string;
  sigla?: string;
  visivelClienteFinal?: boolean;
}

export type PedidoCommand =
  /** Upsert (PUT /pedido). `novo` is used only when the order does not exist yet. */
  | { acao: 'salvar'; idLoja: number; dados: DadosPedido; novo?: NovoPedido; agora: string }
  /** POST /pedidoRastreio/evento: creates the order and the volume on first use. */
  | { acao: 'registrarEvento'; idLoja: number; evento: NovoEvento; novo?: NovoPedido; agora: string }
  | { acao: 'corrigirEvento'; hash: string; correcao: Correcao };

export class PedidoNaoEncontrado extends Error {
  constructor() {
    super('Pedido não encontrado.');
  }
}

export class EventoNaoEncontrado extends Error {
  constructor() {
    super('Evento de rastreio não encontrado.');
  }
}

export class VolumeEncerrado extends Error {
  constructor(readonly chaveEnvio: string) {
    super(`O volume ${chaveEnvio} está encerrado e não aceita novos eventos.`);
  }
}

export const pedidoInicial = (): PedidoState => ({ pedido: null, volumes: [] });

export const pedidoStreamId = (idPedido: string): string => `pedido-${idPedido}`;

export function pedidoRef(pedido: Pedido): PedidoRef {
  return {
    idPedido: pedido.idPedido,
    numeroPedido: pedido.numeroPedido,
    tipoPedido: pedido.tipoPedido,
    pedidoCanal: pedido.pedidoCanal,
    linkRastreio: pedido.linkRastreio,
  };
}

/** Deep equality of JSON values, whatever the order of object keys (stored events come back with theirs reordered). */
function iguais(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  const keysA = Object.keys(a).filter((key) => (a as Record<string, unknown>)[key] !== undefined);
  const keysB = Object.keys(b).filter((key) => (b as Record<string, unknown>)[key] !== undefined);
  return keysA.length === keysB.length && keysA.every((key) => iguais((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}

function mesmosDados(pedido: Pedido, dados: DadosPedido): boolean {
  return (Object.keys(dados) as (keyof DadosPedido)[]).every((campo) => iguais(pedido[campo], dados[campo]));
}

function decideSalvar(command: Extract<PedidoCommand, { acao: 'salvar' }>, state: PedidoState): PedidoEvent[] {
  if (state.pedido) {
    // Saving what is already there changes nothing, so it is no new fact.
    if (mesmosDados(state.pedido, command.dados)) return [];
    return [{ type: 'pedido.salvo', data: { ...state.pedido, ...command.dados, atualizadoEm: command.agora } }];
  }
  if (!command.novo) throw new PedidoNaoEncontrado();
  return [{ type: 'pedido.salvo', data: { ...command.novo, ...command.dados, criadoEm: command.agora, atualizadoEm: command.agora } }];
}

/** The order a first tracking event creates: only what the event says; PUT /pedido completes it. */
function pedidoDoEvento(novo: NovoPedido, evento: NovoEvento, agora: string): Pedido {
  return {
    ...novo,
    numeroPedido: evento.numeroPedido,
    tipoPedido: evento.tipoPedido,
    pedidoCanal: evento.pedidoCanal,
    canalVenda: null,
    situacao: SITUACAO_PADRAO,
    cliente: null,
    enderecoEntrega: null,
    itens: [],
    valorTotal: 0,
    dataPedido: agora,
    criadoEm: agora,
    atualizadoEm: agora,
  };
}

function decideRegistrar(command: Extract<PedidoCommand, { acao: 'registrarEvento' }>, state: PedidoState): PedidoEvent[] {
  const { evento, agora } = command;
  const events: PedidoEvent[] = [];
  let pedido = state.pedido;
  if (!pedido) {
    if (!command.novo) throw new PedidoNaoEncontrado();
    pedido = pedidoDoEvento(command.novo, evento, agora);
    events.push({ type: 'pedido.salvo', data: pedido });
  }
  const volume = volumeDoEvento(state.volumes, evento);
  const hash = hashEvento({ idLoja: command.idLoja, idPedido: pedido.idPedido, chaveEnvio: volume.chaveEnvio, ...evento });
  // The same event posted again (a retry) is the one already recorded.
  if (state.volumes.some((existing) => existing.eventos.some((registered) => registered.hash === hash))) return [];
  if (volume.status === 'encerrado') throw new VolumeEncerrado(volume.chaveEnvio);
  if (state.pedido && evento.pedidoCanal && evento.pedidoCanal !== pedido.pedidoCanal) {
    pedido = { ...pedido, pedidoCanal: evento.pedidoCanal, atualizadoEm: agora };
    events.push({ type: 'pedido.salvo', data: pedido });
  }
  events.push({
    type: 'rastreio.evento.registrado',
    data: {
      ...pedidoRef(pedido),
      chaveEnvio: volume.chaveEnvio,
      origemChave: volume.origemChave,
      codigoRastreio: volume.codigoRastreio,
      chaveNFe: volume.chaveNFe,
      identificador: volume.identificador,
      codigoEnvio: volume.codigoEnvio,
      rotulo: volume.rotulo,
      hash,
      dataHora: evento.dataHora,
      descricao: evento.descricao,
      sigla: evento.sigla,
      visivelClienteFinal: evento.visivelClienteFinal,
      origem: evento.origem,
      encerraVolume: evento.encerraVolume,
    },
  });
  return events;
}

function decideCorrigir(command: Extract<PedidoCommand, { acao: 'corrigirEvento' }>, state: PedidoState): PedidoEvent[] {
  const volume = state.volumes.find((candidate) => candidate.eventos.some((evento) => evento.hash === command.hash));
  const evento = volume?.eventos.find((candidate) => candidate.hash === command.hash);
  if (!state.pedido || !volume || !evento) throw new EventoNaoEncontrado();
  const corrigido = {
    dataHora: command.correcao.dataHora ?? evento.dataHora,
    descricao: command.correcao.descricao ?? evento.descricao,
    sigla: command.correcao.sigla ?? evento.sigla,
    visivelClienteFinal: command.correcao.visivelClienteFinal ?? evento.visivelClienteFinal,
  };
  const muda = (Object.keys(corrigido) as (keyof typeof corrigido)[]).some((campo) => corrigido[campo] !== evento[campo]);
  if (!muda) return [];
  const { eventos: _eventos, status: _status, ...volumeRef } = volume;
  // Corrections are allowed on a closed volume too: they fix history, they add no movement.
  return [{ type: 'rastreio.evento.corrigido', data: { ...pedidoRef(state.pedido), ...volumeRef, hash: evento.hash, ...corrigido } }];
}

export function decidePedido(command: PedidoCommand, state: PedidoState): PedidoEvent[] {
  switch (command.acao) {
    case 'salvar':
      return decideSalvar(command, state);
    case 'registrarEvento':
      return decideRegistrar(command, state);
    case 'corrigirEvento':
      return decideCorrigir(command, state);
  }
}

export function evolvePedido(state: PedidoState, event: PedidoEvent): PedidoState {
  if (event.type === 'pedido.salvo') return { ...state, pedido: event.data };
  return { ...state, volumes: evolveVolumes(state.volumes, event) };
}

export const pedidoDecider = { decide: decidePedido, evolve: evolvePedido, initialState: pedidoInicial };
