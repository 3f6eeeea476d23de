import { Injectable, UnauthorizedException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { TokenService, type TokenEmitido } from '../auth/token.service';
import { hashCodigo } from '../codigo-da-conta';

/** What an unknown code and an inactive store both get, so a code cannot be probed. */
export const CODIGO_INVALIDO = 'Código inválido ou loja inativa.';

/** GET /autenticacao/{codigo}: the account code for a token of its store, if the store is active. */
@Injectable()
export class AutenticarHandler {
  constructor(
    private readonly tokens: TokenService,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async execute(codigo: string): Promise<TokenEmitido> {
    const rows: { id_loja: number; ativa: boolean }[] = codigo.length <= 128
      ? await this.dataSource.query(`SELECT id_loja, ativa FROM lojas WHERE codigo_hash = $1`, [hashCodigo(codigo)])
      : [];
    if (rows.length === 0 || !rows[0].ativa) throw new UnauthorizedException(CODIGO_INVALIDO);
    return this.tokens.emitir(rows[0].id_loja);
  }
}
