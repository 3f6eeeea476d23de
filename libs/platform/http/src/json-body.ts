import { BadRequestException } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';

export const MAX_BODY_BYTES = 1024 * 1024;

/** What a problem says about a request refused before it reached its route, by status. */
export const BODY_REFUSALS: Record<number, string> = {
  413: 'O corpo da requisição passa de 1 MiB.',
  415: 'Envie o corpo como application/json.',
};

/**
 * Bodies are JSON objects or nothing (anything else is a 415; over MAX_BODY_BYTES a 413): parsed
 * by Fastify's own parser (which refuses `__proto__` keys), with an empty body taken as none, so
 * validation names the missing fields; malformed JSON, or JSON that is not an object (`null`, a
 * list, a number), is a 400 that says so.
 */
export function acceptJsonBodies(fastify: FastifyInstance): void {
  const parse = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') return done(null, undefined);
    parse(request, body as string, (error, value) => {
      if (error) return done(new BadRequestException('O corpo da requisição não é JSON válido.'), undefined);
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return done(new BadRequestException('O corpo da requisição deve ser um objeto JSON.'), undefined);
      done(null, value);
    });
  });
}
