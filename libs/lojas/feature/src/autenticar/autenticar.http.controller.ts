import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { Throttle } from '@nestjs/throttler';
import { CarriesCredential, SecretParams, SemToken } from '@trilha/http';
import { AutenticarHandler, CODIGO_INVALIDO } from './autenticar.handler';

export class TokenResponse {
  @ApiProperty() token: string;
  @ApiProperty({ enum: ['Bearer'] }) tipo: 'Bearer';
  @ApiProperty({ format: 'date-time' }) expiraEm: string;
  @ApiProperty({ example: 3600 }) expiraEmSegundos: number;
}

@ApiTags('Autenticação')
@Controller('autenticacao')
@SemToken()
export class AutenticarHttpController {
  constructor(private readonly handler: AutenticarHandler) {}

  /** Unknown code and inactive store get the same answer, so a code cannot be probed. 30/min per client address. */
  @Get(':codigo')
  @SecretParams('codigo')
  @CarriesCredential()
  @Throttle({ default: { limit: 30, ttl: 60_000 } })
  @ApiOperation({ operationId: 'autenticar', summary: 'Troca o código da conta por um token Bearer da loja.' })
  @ApiOkResponse({ type: TokenResponse })
  @ApiUnauthorizedResponse({ description: CODIGO_INVALIDO })
  autenticar(@Param('codigo') codigo: string): Promise<TokenResponse> {
    return this.handler.execute(codigo);
  }
}
