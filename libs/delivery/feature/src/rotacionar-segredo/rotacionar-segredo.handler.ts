import { Inject, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { gerarSegredo } from '@trilha/delivery-domain';
import { travarLojas, DELIVERY_OPTIONS, type DeliveryOptions, type SegredoRotacionadoResponse } from '../shared';

/**
 * POST /webhook/segredo/rotacionar: a new secret signs from now on; the current one keeps
 * signing beside it for WEBHOOK_SECRET_OVERLAP, so a receiver still configured with it goes on
 * verifying. A second rotation within the overlap drops the oldest secret at once: only the two
 * newest sign. The new secret is stored encrypted (WEBHOOK_SECRET_KEYS) and shown only in the answer.
 */
@Injectable()
export class RotacionarSegredoHandler {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(DELIVERY_OPTIONS) private readonly options: DeliveryOptions,
  ) {}

  async execute(idLoja: number): Promise<SegredoRotacionadoResponse> {
    const segredo = gerarSegredo();
    return this.dataSource.transaction(async (manager) => {
      await travarLojas(manager, [idLoja]);
      const [linhas]: [{ criado_em: Date; segredo_anterior_ate: Date }[], number] = await manager.query(
        `UPDATE webhooks SET segredo_anterior = segredo, segredo_anterior_ate = now() + make_interval(secs => $3), segredo = $2
         WHERE id_loja = $1 RETURNING now() AS criado_em, segredo_anterior_ate`,
        [idLoja, this.options.chaveiro.cifrar(segredo), this.options.sobreposicaoSegredoMs / 1000],
      );
      const [webhook] = linhas;
      if (!webhook) throw new NotFoundException('A loja não tem webhook cadastrado.');
      return { segredo, criadoEm: webhook.criado_em.toISOString(), antigoValidoAte: webhook.segredo_anterior_ate.toISOString() };
    });
  }
}
