import { Inject, Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { LRUCache } from 'lru-cache';
import { LOJAS_OPTIONS, type LojasOptions } from '../lojas.options';

interface TokenClaims {
  sub: string;
  idLoja: number;
  /** Issue time in milliseconds: a deactivation revokes tokens issued before it, to the ms. */
  emt: number;
}

export interface TokenVerificado {
  idLoja: number;
  emitidoEmMs: number;
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
  /**
   * Tokens whose signature was already checked, each kept no longer than it is valid: a client
   * sends the same token with every request, and checking it (HMAC and JSON parsing) costs ≈ 4 %
   * of the gateway's CPU per request. Revocation is not cached here (the guard asks
   * LojaStatusCache).
   */
  private readonly verificados = new LRUCache<string, TokenVerificado>({ max: 10_000 });

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
  async verificar(token: string): Promise<TokenVerificado | undefined> {
    const conhecido = this.verificados.get(token);
    if (conhecido) return conhecido;
    try {
      const claims = await this.jwt.verifyAsync<TokenClaims & { exp: number }>(token, { algorithms: ['HS256'] });
      if (!Number.isInteger(claims.idLoja) || typeof claims.emt !== 'number') return undefined;
      const verificado = { idLoja: claims.idLoja, emitidoEmMs: claims.emt };
      const validoPorMs = claims.exp * 1000 - Date.now();
      if (validoPorMs > 0) this.verificados.set(token, verificado, { ttl: validoPorMs });
      return verificado;
    } catch {
      return undefined;
    }
  }
}
