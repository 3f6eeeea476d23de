/** The portal's pages, in the navigation's order: the fragment `#<pagina>` shows one. */
export const PAGINAS = [
  { id: 'webhook', titulo: 'Webhook' },
  { id: 'entregas', titulo: 'Entregas' },
  { id: 'fila', titulo: 'Fila' },
  { id: 'catalogo', titulo: 'Catálogo de eventos' },
] as const;

export type IdPagina = (typeof PAGINAS)[number]['id'];

export type Rota = { pagina: IdPagina; idEntrega?: string };

const ENTREGA = /^entregas\/([0-9a-f-]{36})$/;

/**
 * What a fragment shows: a page, a delivery's detail (`#entregas/<idEntrega>`), or null when the
 * fragment is none of them: then it is a portal link's secret (or empty).
 */
export function rotaDe(fragmento: string): Rota | null {
  const valor = fragmento.replace(/^#/, '');
  const pagina = PAGINAS.find((p) => p.id === valor);
  if (pagina) return { pagina: pagina.id };
  const entrega = ENTREGA.exec(valor);
  return entrega ? { pagina: 'entregas', idEntrega: entrega[1] } : null;
}

export function fragmentoDe(rota: Rota): string {
  return rota.idEntrega ? `#entregas/${rota.idEntrega}` : `#${rota.pagina}`;
}
