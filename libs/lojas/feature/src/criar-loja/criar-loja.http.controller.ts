import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiCreatedResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { AdminKeyGuard } from '../auth/admin-key.guard';
import { CarriesCredential, SemToken } from '@trilha/http';
import { LojaCriadaResponse } from '../loja.response';
import { CriarLojaHandler } from './criar-loja.handler';
import { CriarLojaRequest } from './criar-loja.request';

@ApiTags('Operador')
@ApiSecurity('admin-key')
@Controller('admin/lojas')
@SemToken()
@UseGuards(AdminKeyGuard)
export class CriarLojaHttpController {
  constructor(private readonly handler: CriarLojaHandler) {}

  @Post()
  @CarriesCredential()
  @HttpCode(201)
  @ApiOperation({ operationId: 'criarLoja', summary: 'Cria uma loja e devolve seu código de conta (mostrado só aqui).' })
  @ApiCreatedResponse({ type: LojaCriadaResponse })
  criar(@Body() body: CriarLojaRequest): Promise<LojaCriadaResponse> {
    return this.handler.execute(body.nome);
  }
}
