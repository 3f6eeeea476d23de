import { Inject, Injectable, NotFoundException, UnauthorizedException, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { hash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { header } from '@trilha/http';
import { LOJAS_OPTIONS, type LojasOptions } from '../lojas.options';

const digest = (value: string) => hash('sha256', value, 'buffer');

/** Operator routes: `X-Admin-Key` must equal ADMIN_API_KEY; without that setting they do not exist. */
@Injectable()
export class AdminKeyGuard implements CanActivate {
  constructor(@Inject(LOJAS_OPTIONS) private readonly options: LojasOptions) {}

  canActivate(context: ExecutionContext): boolean {
    if (!this.options.adminApiKey) throw new NotFoundException('Rota não encontrada.');
    const given = header(context.switchToHttp().getRequest<FastifyRequest>(), 'x-admin-key') ?? '';
    if (!timingSafeEqual(digest(given), digest(this.options.adminApiKey))) {
      throw new UnauthorizedException('X-Admin-Key ausente ou incorreta.');
    }
    return true;
  }
}
