import { Injectable, UnprocessableEntityException, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { FastifyRequest } from 'fastify';
import { from, lastValueFrom, of, type Observable } from 'rxjs';
import type { DataSource } from 'typeorm';
import { InvalidInputException } from '@trilha/http';
import { answering, fingerprint, isKeyTaken, parseIdempotencyKey, type IdempotentRequest } from './idempotent-request';

/**
 * Honours `Idempotency-Key` on a route that creates (`@Idempotente()`): the first request with a
 * key runs, and its command keeps its answer in the same transaction (`keepAnswer`); a request
 * with the same store and key gets that answer back without running again, whichever replica
 * it reaches. The same key with another method, path or body is refused (422). Two requests
 * with one key at once both run, and the one whose COMMIT comes second rolls back and answers
 * with the first one's answer.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const request = context.switchToHttp().getRequest<FastifyRequest & { idLoja: number }>();
    const header = request.headers['idempotency-key'];
    if (header === undefined) return next.handle();
    const key = typeof header === 'string' ? parseIdempotencyKey(header) : undefined;
    if (key === undefined) {
      throw new InvalidInputException([{ campo: 'Idempotency-Key', mensagem: 'Idempotency-Key deve ter de 1 a 255 caracteres ASCII visíveis, exceto " e \\ (um UUID, por exemplo), entre aspas ou não' }]);
    }
    const idempotent: IdempotentRequest = { idLoja: request.idLoja, key, fingerprint: fingerprint(request.method, request.url, request.body) };
    const kept = await this.keptAnswer(idempotent);
    if (kept !== undefined) return of(kept);
    return from(
      answering(idempotent, () => lastValueFrom(next.handle(), { defaultValue: undefined })).catch(async (error: unknown) => {
        if (!isKeyTaken(error)) throw error;
        return (await this.keptAnswer(idempotent)) ?? Promise.reject(error);
      }),
    );
  }

  /** The answer kept under the request's key; undefined when there is none yet. */
  private async keptAnswer({ idLoja, key, fingerprint: asked }: IdempotentRequest): Promise<unknown> {
    const [row]: { fingerprint: string; body: unknown }[] = await this.dataSource.query(`SELECT fingerprint, body FROM idempotency_keys WHERE id_loja = $1 AND key = $2`, [idLoja, key]);
    if (!row) return undefined;
    if (row.fingerprint !== asked) {
      throw new UnprocessableEntityException('Esta Idempotency-Key já foi usada com outra requisição (outro método, caminho ou corpo): use uma chave nova para cada requisição diferente.');
    }
    return row.body;
  }
}
