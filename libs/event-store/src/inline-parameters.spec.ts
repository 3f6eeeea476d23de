import { escapeLiteral } from 'pg';
import { inlineParameters, quoted } from './compact-transaction';

// What PostgreSQL reads back from these literals: event-store.int.spec.ts.
describe('inlineParameters', () => {
  it('tells $10 from $1 and leaves a value that looks like a parameter alone', () => {
    const params = ['$2', 'b', 3, 4, 5, 6, 7, 8, 9, 'ten'];
    expect(inlineParameters('SELECT $10, $1', params)).toBe(`SELECT 'ten', '$2'`);
  });

  it('writes an array element by element: NULL bare, every other value quoted', () => {
    const date = new Date('2026-01-02T03:04:05.678Z');
    expect(inlineParameters('SELECT $1', [[1, true, date, null, 'NULL']])).toBe(`SELECT '{"1","true","2026-01-02T03:04:05.678Z",NULL,"NULL"}'`);
    expect(() => inlineParameters('SELECT $1', [[Number.POSITIVE_INFINITY]])).toThrow(TypeError);
  });

  it('refuses what it cannot write and a parameter that was not given', () => {
    expect(() => inlineParameters('SELECT $1', [Number.NaN])).toThrow(TypeError);
    expect(() => inlineParameters('SELECT $1', [{ a: 1 } as never])).toThrow(TypeError);
    expect(() => inlineParameters('SELECT $2', [1])).toThrow(RangeError);
  });

  it('quotes a text as pg does', () => {
    const document = JSON.stringify({ descricao: "Saiu para entrega: d'Ávila \\ 'Centro'", eventos: Array.from({ length: 50 }, (_, i) => `evento ${i}`) });
    for (const text of ['', 'abc', "o'neil", "''", 'a\\b', '\\', "\\'", 'ação 🚚', document]) expect(quoted(text)).toBe(escapeLiteral(text));
  });
});
