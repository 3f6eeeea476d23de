import { BODY_LIMITS, bodyLimitPassed } from './json-body';
import { MAX_LISTED_ERRORS, problem } from './problem';

const object = (keys: number) => JSON.stringify(Object.fromEntries(Array.from({ length: keys }, (_, i) => [`c${i}`, i])));
const list = (items: number) => `{"itens":[${Array(items).fill('{}').join(',')}]}`;
const nested = (levels: number) => `{"a":${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}`;

describe('body limits, read on the text before it is parsed', () => {
  it('lets the largest bodies of the API through: 1000 items of 4 keys, at depth 3', () => {
    const pedido = { numeroPedido: '1', cliente: { nome: 'Ana' }, itens: Array.from({ length: 1000 }, () => ({ sku: 'A', descricao: 'B', quantidade: 1, valorUnitario: 1 })), valorTotal: 1 };
    expect(bodyLimitPassed(JSON.stringify(pedido))).toBeUndefined();
    expect(bodyLimitPassed(nested(BODY_LIMITS.depth))).toBeUndefined();
    expect(bodyLimitPassed(object(BODY_LIMITS.keysPerObject))).toBeUndefined();
    expect(bodyLimitPassed(list(BODY_LIMITS.values - 1))).toBeUndefined();
  });

  it('names the limit a body passes: depth, values (keys and list items), keys of one object', () => {
    expect(bodyLimitPassed(nested(BODY_LIMITS.depth + 1))).toBe('O corpo da requisição passa de 32 níveis de objetos e listas aninhados.');
    expect(bodyLimitPassed(nested(200_000))).toMatch(/32 níveis/);
    expect(bodyLimitPassed(list(BODY_LIMITS.values))).toBe('O corpo da requisição passa de 10.000 valores (campos e itens de listas).');
    expect(bodyLimitPassed(`{"a":[${Array(BODY_LIMITS.values / 2).fill(object(1)).join(',')}]}`)).toMatch(/10\.000 valores/);
    expect(bodyLimitPassed(object(BODY_LIMITS.keysPerObject + 1))).toBe('Um objeto do corpo da requisição passa de 256 campos.');
  });

  it('does not count what is inside strings, escaped quotes included, nor empty lists', () => {
    const texto = `"\\"${'{[:,'.repeat(BODY_LIMITS.values)}\\\\"`;
    expect(bodyLimitPassed(`{"a":${texto},"b":[ ],"c":[${Array(BODY_LIMITS.values - 3).fill('[]').join(',')}]}`)).toBeUndefined();
  });
});

describe('problem documents', () => {
  it('list the first invalid fields and count them all', () => {
    const erros = Array.from({ length: 250 }, (_, i) => ({ campo: `c${i}`, mensagem: `c${i} não é um campo aceito` }));
    const document = problem(400, 'Um ou mais campos são inválidos.', '/v1/pedido', erros);
    expect(document.erros).toEqual(erros.slice(0, MAX_LISTED_ERRORS));
    expect(document.totalErros).toBe(250);
  });
});
