/**
 * Cutting a text to a length that a contract allows. Lengths are counted in code points, as
 * the contracts' `MaxLength` counts them, so an emoji or any astral character counts once; a
 * cut falls between graphemes (Intl.Segmenter), so no character, nor an emoji made of several
 * code points, is ever split.
 */

/** The text's length in code points. */
export function tamanho(texto: string): number {
  let total = 0;
  for (const _ of texto) total += 1;
  return total;
}

export const RETICENCIAS = '…';

const graphemes = new Intl.Segmenter('pt-BR', { granularity: 'grapheme' });
/** What is left at the end of a cut text before its ending: spaces and a dangling separator. */
const SOBRA_NO_FIM = /[\s,;:.\-–—(]+$/u;

/**
 * The text itself if it has at most `max` code points; otherwise its longest start that ends
 * at a word (at a space, or, for a first word longer than the room, at a grapheme) followed by
 * `fim`, at most `max` code points in all. `fim` is shortened to "…" when it does not fit.
 */
export function cortarTexto(texto: string, max: number, fim = RETICENCIAS): string {
  if (tamanho(texto) <= max) return texto;
  const final = tamanho(fim) <= max ? fim : RETICENCIAS;
  const espaco = max - tamanho(final);
  if (espaco < 0) return '';
  let usados = 0;
  let cabe = 0;
  let ultimaPalavra = 0;
  for (const { segment, index } of graphemes.segment(texto)) {
    usados += tamanho(segment);
    if (usados > espaco) {
      if (/^\s/u.test(segment)) ultimaPalavra = index;
      break;
    }
    if (/^\s/u.test(segment)) ultimaPalavra = index;
    cabe = index + segment.length;
  }
  const inicio = texto.slice(0, ultimaPalavra > 0 ? ultimaPalavra : cabe).replace(SOBRA_NO_FIM, '');
  return `${inicio}${final}`;
}
