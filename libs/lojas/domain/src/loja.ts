/**
 * The store (loja) aggregate: pure decide/evolve, no I/O. A store is created active; an
 * operator can deactivate it (which revokes every token issued so far), activate it again,
 * replace its account code (which revokes every token issued so far too), and record that the
 * app was removed from it.
 */

export type LojaState =
  | { existe: false }
  | { existe: true; idLoja: number; nome: string; ativa: boolean; tokensRevogadosAntes: string | null };

export type LojaEvent =
  | { type: 'loja.criada'; data: { idLoja: number; nome: string; codigoHash: string; criadaEm: string } }
  | { type: 'loja.desativada'; data: { idLoja: number; dataDesativacao: string } }
  | { type: 'loja.ativada'; data: { idLoja: number; dataAtivacao: string } }
  | { type: 'loja.codigo.rotacionado'; data: { idLoja: number; codigoHash: string; dataRotacao: string } }
  | { type: 'aplicativo.removido'; data: { idLoja: number; dataRemocao: string } };

export type LojaCommand =
  | { acao: 'criar'; idLoja: number; nome: string; codigoHash: string; agora: string }
  | { acao: 'desativar'; agora: string }
  | { acao: 'ativar'; agora: string }
  | { acao: 'rotacionarCodigo'; codigoHash: string; agora: string }
  | { acao: 'removerAplicativo'; agora: string };

export class LojaNaoEncontrada extends Error {
  constructor() {
    super('Loja não encontrada.');
  }
}

export class LojaJaExiste extends Error {
  constructor(idLoja: number) {
    super(`A loja ${idLoja} já existe.`);
  }
}

export const lojaInicial = (): LojaState => ({ existe: false });

export function decideLoja(command: LojaCommand, state: LojaState): LojaEvent[] {
  if (command.acao === 'criar') {
    if (state.existe) throw new LojaJaExiste(command.idLoja);
    return [{ type: 'loja.criada', data: { idLoja: command.idLoja, nome: command.nome, codigoHash: command.codigoHash, criadaEm: command.agora } }];
  }
  if (!state.existe) throw new LojaNaoEncontrada();
  switch (command.acao) {
    case 'desativar':
      return state.ativa ? [{ type: 'loja.desativada', data: { idLoja: state.idLoja, dataDesativacao: command.agora } }] : [];
    case 'ativar':
      return state.ativa ? [] : [{ type: 'loja.ativada', data: { idLoja: state.idLoja, dataAtivacao: command.agora } }];
    case 'rotacionarCodigo':
      return [{ type: 'loja.codigo.rotacionado', data: { idLoja: state.idLoja, codigoHash: command.codigoHash, dataRotacao: command.agora } }];
    case 'removerAplicativo':
      return [{ type: 'aplicativo.removido', data: { idLoja: state.idLoja, dataRemocao: command.agora } }];
  }
}

export function evolveLoja(state: LojaState, event: LojaEvent): LojaState {
  switch (event.type) {
    case 'loja.criada':
      return { existe: true, idLoja: event.data.idLoja, nome: event.data.nome, ativa: true, tokensRevogadosAntes: null };
    case 'loja.desativada':
      return state.existe ? { ...state, ativa: false, tokensRevogadosAntes: event.data.dataDesativacao } : state;
    case 'loja.ativada':
      return state.existe ? { ...state, ativa: true } : state;
    case 'loja.codigo.rotacionado':
      return state.existe ? { ...state, tokensRevogadosAntes: event.data.dataRotacao } : state;
    case 'aplicativo.removido':
      return state;
  }
}

export const lojaDecider = { decide: decideLoja, evolve: evolveLoja, initialState: lojaInicial };

export const lojaStreamId = (idLoja: number): string => `loja-${idLoja}`;

/** What the gateway needs to know of a store to accept its tokens. */
export interface LojaAcesso {
  ativa: boolean;
  tokensRevogadosAntes: string | null;
}

/**
 * A token is accepted while its store is active and it was issued after the store's last
 * deactivation or code rotation: both revoke every token, and activating again does not revive
 * them.
 */
export function tokenAceito(loja: LojaAcesso | undefined, emitidoEmMs: number): boolean {
  if (!loja?.ativa) return false;
  return loja.tokensRevogadosAntes === null || emitidoEmMs > Date.parse(loja.tokensRevogadosAntes);
}
