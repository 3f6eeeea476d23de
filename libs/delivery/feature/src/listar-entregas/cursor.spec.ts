import { cursorTexto, lerCursor } from './cursor';

describe('the deliveries log cursor', () => {
  it('reads back what it wrote, as URL-safe text', () => {
    const texto = cursorTexto({ antesDe: 9_007_199_254, pagina: 3 });
    expect(texto).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(lerCursor(texto)).toEqual({ antesDe: 9_007_199_254, pagina: 3 });
  });

  it.each(['', 'abc', '!!!!', cursorTexto({ antesDe: 10, pagina: 2 }) + 'x', Buffer.from('10:0').toString('base64url'), Buffer.from('0:2').toString('base64url'), Buffer.from('-1:2').toString('base64url'), Buffer.from('10:2 ').toString('base64url'), `${cursorTexto({ antesDe: 10, pagina: 2 })}=`])(
    'refuses %j',
    (texto) => {
      expect(lerCursor(texto)).toBeUndefined();
    },
  );
});
