import { Inject, Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { LOJAS_OPTIONS, type LojasOptions } from '../lojas.options';

interface TokenClaims {
  sub: string;
  idLoja: number;
  /** Issue time in milliseconds: a deactivation revokes tokens issued before it, to the ms. */
  emt: number;
}

export interface TokenEmitido {
  token: string;
  tipo: 'Bearer';
  expiraEm: string;
  expiraEmSegundos: number;
}

/** Store-scoped bearer tokens: HS256 JWTs with a lifetime, checked against the store's status. */
@Injectable()
export class TokenService {
  constructor(
    private readonly jwt: JwtService,
    @Inject(LOJAS_OPTIONS) private readonly options: LojasOptions,
  ) {}

  async emitir(idLoja: number): Promise<TokenEmitido> {
    const agora = Date.now();
    const claims: TokenClaims = { sub: `loja:${idLoja}`, idLoja, emt: agora };
    const token = await this.jwt.signAsync(claims, { expiresIn: this.options.tokenTtlSeconds });
    return {
      token,
      tipo: 'Bearer',
      expiraEm: new Date(agora + this.options.tokenTtlSeconds * 1000).toISOString(),
      expiraEmSegundos: this.options.tokenTtlSeconds,
    };
  }

  /** The token's store and issue time, or undefined for a malformed, forged or expired token. */
  async verificar(token: string): Promise<{ idLoja: number; emitidoEmMs: number } | undefined> {
    try {
      const claims = await this.jwt.verifyAsync<TokenClaims>(token, { algorithms: ['HS256'] });
      if (!Number.isInteger(claims.idLoja) || typeof claims.emt !== 'number') return undefined;
      return { idLoja: claims.idLoja, emitidoEmMs: claims.emt };
    } catch {
      return undefined;
    }
  }
}
