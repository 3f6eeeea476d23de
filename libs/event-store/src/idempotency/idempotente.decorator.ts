import { applyDecorators, UseInterceptors } from '@nestjs/common';
import { ApiHeader, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { IDEMPOTENCY_KEY_PATTERN, KEY_KEPT_HOURS } from './idempotent-request';

/**
 * A route that creates honours `Idempotency-Key` (IETF draft httpapi-idempotency-key-header):
 * its handler passes the answer to its command (`handleCommand`'s `answer`), which keeps it.
 */
export function Idempotente(): MethodDecorator {
  return applyDecorators(
    UseInterceptors(IdempotencyInterceptor),
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description:
        `Chave única desta criação (um UUID novo por requisição, por exemplo). Repetir a requisição com a mesma chave, por ${KEY_KEPT_HOURS} horas ao menos, ` +
        'responde o mesmo corpo sem criar de novo, mesmo se a primeira resposta se perdeu num timeout ou numa queda. ' +
        'A mesma chave com outro corpo responde 422. Uma requisição que não mudou nada não guarda a chave.',
      schema: { type: 'string', pattern: IDEMPOTENCY_KEY_PATTERN, example: '"8e03978e-40d5-43e8-bc93-6894a57f9324"' },
    }),
    ApiUnprocessableEntityResponse({ description: 'A Idempotency-Key já foi usada com outra requisição (outro método, caminho ou corpo).' }),
  );
}
