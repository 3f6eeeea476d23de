/**
 * The deliveries log's cursor (`proximoCursor`, `cursor`): opaque to the store, it carries the
 * position (`entregas.posicao`) of the last delivery a page showed, and the number the next
 * page has, so a page after it is one indexed range read however deep the store's log is.
 */
export interface Cursor {
  /** The next page shows the deliveries recorded before this position. */
  antesDe: number;
  pagina: number;
}

const FORMA = /^([1-9]\d{0,15}):([1-9]\d{0,8})$/;

export function cursorTexto({ antesDe, pagina }: Cursor): string {
  return Buffer.from(`${antesDe}:${pagina}`).toString('base64url');
}

/** The cursor a `cursorTexto` gave; undefined for any other text (Node's base64url reading is lenient, so the text must be the exact encoding). */
export function lerCursor(texto: string): Cursor | undefined {
  const forma = FORMA.exec(Buffer.from(texto, 'base64url').toString('latin1'));
  if (!forma) return undefined;
  const cursor = { antesDe: Number(forma[1]), pagina: Number(forma[2]) };
  return cursorTexto(cursor) === texto ? cursor : undefined;
}
