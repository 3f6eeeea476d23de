import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';
import { OPENAPI_EXTENSIONS } from './internal-api/internal-headers';
import type { FastifyRequest } from 'fastify';

export const ROUTE_ACCESS = 'trilha:route-access';

/** Routes without a store token: the token endpoint, docs, the public page, operator routes. */
export const SemToken = () => applyDecorators(SetMetadata(ROUTE_ACCESS, 'sem-token'), ApiExtension(OPENAPI_EXTENSIONS.withoutToken, true));

export interface LojaAutenticada {
  idLoja: number;
}

export type AuthenticatedRequest = FastifyRequest & { loja?: LojaAutenticada };
