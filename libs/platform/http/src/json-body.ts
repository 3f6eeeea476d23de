import { BadRequestException } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';

export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * The shape a body may have, checked on its text before it is parsed: validation turns a body
 * into a request class value by value, compares each object's keys with one another (a cost that
 * grows with the square of an object's keys) and walks it recursively. The largest bodies of the
 * API, an order of 1000 items or an agent of 1000 FAQ entries, hold about 5,000 values (keys and
 * list items) at depth 3, in objects of at most 12 keys.
 */
export const BODY_LIMITS = { depth: 32, values: 10_000, keysPerObject: 256 } as const;

/** What a problem says about a request refused before it reached its route, by status. */
export const BODY_REFUSALS: Record<number, string> = {
  413: 'O corpo da requisição passa de 1 MiB.',
  415: 'Envie o corpo como application/json.',
};

const OVER_LIMIT = {
  depth: `O corpo da requisição passa de ${BODY_LIMITS.depth} níveis de objetos e listas aninhados.`,
  values: `O corpo da requisição passa de ${BODY_LIMITS.values.toLocaleString('pt-BR')} valores (campos e itens de listas).`,
  keysPerObject: `Um objeto do corpo da requisição passa de ${BODY_LIMITS.keysPerObject} campos.`,
} as const;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const OPEN_LIST = 0x5b;
const CLOSERS = new Set([0x7d, 0x5d]);
/** Where an open list stands in the stack of open containers, which holds each open object's keys so far. */
const LIST = -1;
/** A list that closes right after it opens, blanks aside: it holds no item. */
const EMPTY_LIST_END = /\s*\]/y;

/**
 * The message of the first of BODY_LIMITS a JSON text passes, or undefined: one pass over its
 * characters, outside strings, counting open objects and lists, each `:` (one per key) and each
 * list item. Malformed text is left to the parser.
 */
export function bodyLimitPassed(text: string): string | undefined {
  const open: number[] = [];
  let values = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    const top = open.length - 1;
    if (char === QUOTE) {
      for (i++; i < text.length && text.charCodeAt(i) !== QUOTE; i++) if (text.charCodeAt(i) === BACKSLASH) i++;
    } else if (char === OPEN_OBJECT) {
      if (open.push(0) > BODY_LIMITS.depth) return OVER_LIMIT.depth;
    } else if (char === OPEN_LIST) {
      if (open.push(LIST) > BODY_LIMITS.depth) return OVER_LIMIT.depth;
      // A list's first item (each other one follows a `,`).
      EMPTY_LIST_END.lastIndex = i + 1;
      if (!EMPTY_LIST_END.test(text) && ++values > BODY_LIMITS.values) return OVER_LIMIT.values;
    } else if (CLOSERS.has(char)) {
      open.pop();
    } else if (char === COMMA && open[top] === LIST) {
      if (++values > BODY_LIMITS.values) return OVER_LIMIT.values;
    } else if (char === COLON && open[top] >= 0) {
      if (++values > BODY_LIMITS.values) return OVER_LIMIT.values;
      if (++open[top] > BODY_LIMITS.keysPerObject) return OVER_LIMIT.keysPerObject;
    }
  }
  return undefined;
}

/**
 * Bodies are JSON objects or nothing (anything else is a 415; over MAX_BODY_BYTES a 413): parsed
 * by Fastify's own parser (which refuses `__proto__` keys), with an empty body taken as none, so
 * validation names the missing fields; a body past BODY_LIMITS, malformed JSON, or JSON that is
 * not an object (`null`, a list, a number), is a 400 that says so.
 */
export function acceptJsonBodies(fastify: FastifyInstance): void {
  const parse = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') return done(null, undefined);
    const limitPassed = bodyLimitPassed(body as string);
    if (limitPassed) return done(new BadRequestException(limitPassed), undefined);
    parse(request, body as string, (error, value) => {
      if (error) return done(new BadRequestException('O corpo da requisição não é JSON válido.'), undefined);
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return done(new BadRequestException('O corpo da requisição deve ser um objeto JSON.'), undefined);
      done(null, value);
    });
  });
}
