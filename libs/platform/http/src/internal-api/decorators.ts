import { applyDecorators, createParamDecorator, SetMetadata, type ExecutionContext } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';
import { OPENAPI_EXTENSIONS } from './internal-headers';

export const SEM_LOJA = 'trilha:sem-loja';

/** A route of a service that is not about one store (the public tracking page). */
export const SemLoja = () => applyDecorators(SetMetadata(SEM_LOJA, true), ApiExtension(OPENAPI_EXTENSIONS.withoutToken, true));

/** The store the gateway authenticated for this request. */
export const IdLoja = createParamDecorator((_data: unknown, context: ExecutionContext): number =>
  (context.switchToHttp().getRequest<{ idLoja: number }>()).idLoja,
);

/** Who made the request: `api`, or `mcp` when it came through the operational tool server. */
export const Origem = createParamDecorator((_data: unknown, context: ExecutionContext): string =>
  (context.switchToHttp().getRequest<{ origem: string }>()).origem,
);

/**
 * The endpoint's own limit per store and calendar minute, enforced by the gateway (which
 * reads it from the OpenAPI document) instead of the default.
 */
export const LimitePorMinuto = (limit: number) => ApiExtension(OPENAPI_EXTENSIONS.limitPerMinute, limit);
