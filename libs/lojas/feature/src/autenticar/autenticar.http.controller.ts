import { Controller, Get, Param, UnauthorizedException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { Throttle } from '@nestjs/throttler';
import type { DataSource } from 'typeorm';
import { CarriesCredential, SecretParams, SemToken } from '@trilha/http';
import { TokenService } from '../auth/token.service';
import { hashCodigo } from '../codigo-da-conta';

export class TokenResponse {
  @ApiProperty() token: string;
  @ApiProperty({ enum: ['Bearer'] }) tipo: 'Bearer';
  @ApiProperty({ format: 'date-time' }) expiraEm: string;
  @ApiProperty({ example: 3600 }) expiraEmSegundos: number;
}

const INVALIDO = 'Código inválido ou loja inativa.';

@ApiTags('Autenticação')
@Controller('autenticacao')
@SemToken()
export class AutenticarHttpController {
  constructor(
    private readonly tokens: TokenService,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /** Unknown code and inactive store get the same answer, so a code cannot be probed. 30/min per client address. */
  @Get(':codigo')
  @SecretParams('codigo')
  @CarriesCredential()
  @Throttle({ default: { limit: 30, ttl: 60_000 } })
  @ApiOperation({ operationId: 'autenticar', summary: 'Troca o código da conta por um token Bearer da loja.' })
  @ApiOkResponse({ type: TokenResponse })
  @ApiUnauthorizedResponse({ description: INVALIDO })
  async autenticar(@Param('codigo') codigo: string): Promise<TokenResponse> {
    const rows: { id_loja: number; ativa: boolean }[] = codigo.length <= 128
      ? await this.dataSource.query(`SELECT id_loja, ativa FROM lojas WHERE codigo_hash = $1`, [hashCodigo(codigo)])
      : [];
    if (rows.length === 0 || !rows[0].ativa) throw new UnauthorizedException(INVALIDO);
    return this.tokens.emitir(rows[0].id_loja);
  }
}
