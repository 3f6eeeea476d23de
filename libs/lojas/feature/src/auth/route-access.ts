import { SetMetadata } from '@nestjs/common';
import type { Request } from 'express';

export const ROUTE_ACCESS = 'trilha:route-access';

/** Routes without a store token: the token endpoint, docs, the public page, operator routes. */
export const SemToken = () => SetMetadata(ROUTE_ACCESS, 'sem-token');

export interface LojaAutenticada {
  idLoja: number;
}

export type AuthenticatedRequest = Request & { loja?: LojaAutenticada };
