/**
 * Access to the store portal: a single-use link, minted with the store's token (or the
 * operator's key), opens a session that authenticates the portal's requests instead of a token.
 * Pure rules, no I/O.
 */

/** What a portal session may do: `ver` only reads, `gerenciar` also changes. */
export const CAPACIDADES_PORTAL = ['ver', 'gerenciar'] as const;
export type CapacidadePortal = (typeof CAPACIDADES_PORTAL)[number];
export const CAPACIDADE_PORTAL_PADRAO: CapacidadePortal = 'ver';

/** How long a session lasts, in seconds: 5 min to 7 days, 1 h unless the link says otherwise. */
export const DURACAO_SESSAO_PORTAL = { minima: 300, maxima: 604_800, padrao: 3600 } as const;

/** A link must be opened within this time of being minted, once. */
export const VALIDADE_LINK_PORTAL_MS = 15 * 60_000;

export type SituacaoLinkPortal = 'valido' | 'usado' | 'expirado';

/** Whether a link can still be opened at `agoraMs`: a used one stays used, even past its window. */
export function situacaoLinkPortal(link: { usadoEm: Date | null; expiraEm: Date }, agoraMs: number): SituacaoLinkPortal {
  if (link.usadoEm !== null) return 'usado';
  return link.expiraEm.getTime() > agoraMs ? 'valido' : 'expirado';
}

const LEITURAS = new Set(['GET', 'HEAD']);

/** A method that only reads: every capacity may use it, and a browser sends no `Origin` with it. */
export const metodoDeLeitura = (metodo: string): boolean => LEITURAS.has(metodo);

/**
 * Whether a session of this capacity may make a request with this method. A `ver` session
 * only reads, except on the operations that allow it a change (ending itself).
 */
export function sessaoPortalPermite(capacidade: CapacidadePortal, metodo: string, operacaoPermiteVer = false): boolean {
  return capacidade === 'gerenciar' || metodoDeLeitura(metodo) || operacaoPermiteVer;
}
