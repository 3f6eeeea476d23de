import { Module, type DynamicModule } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { JwtModule } from '@nestjs/jwt';
import { createSecretKey } from 'node:crypto';
import { AdminKeyGuard } from './auth/admin-key.guard';
import { BearerAuthGuard } from './auth/bearer-auth.guard';
import { LojaStatusCache } from './auth/loja-status.cache';
import { LojasMessageController } from './auth/lojas.message.controller';
import { TokenService } from './auth/token.service';
import { AlterarSituacaoHttpController } from './alterar-situacao/alterar-situacao.http.controller';
import { AutenticarHandler } from './autenticar/autenticar.handler';
import { AutenticarHttpController } from './autenticar/autenticar.http.controller';
import { CriarLojaHandler } from './criar-loja/criar-loja.handler';
import { CriarLojaHttpController } from './criar-loja/criar-loja.http.controller';
import { LojaAtualHttpController } from './loja-atual/loja-atual.http.controller';
import { LojaCommandsService } from './loja-commands.service';
import { LOJAS_OPTIONS, type LojasOptions } from './lojas.options';
import { RemoverAplicativoHttpController } from './remover-aplicativo/remover-aplicativo.http.controller';
import { RotacionarCodigoHttpController } from './rotacionar-codigo/rotacionar-codigo.http.controller';

/**
 * Stores and authentication (docs/API.md sections 1–2). Installs the bearer-token guard for
 * every route of the app; routes marked @SemToken() opt out.
 */
@Module({})
export class LojasModule {
  static register(options: LojasOptions): DynamicModule {
    return {
      module: LojasModule,
      // A KeyObject, not the string: given a string, jsonwebtoken first tries (and fails) to parse
      // it as a public key on every verification, which cost a fifth of the gateway's CPU under load.
      imports: [JwtModule.register({ secret: createSecretKey(Buffer.from(options.tokenSecret)), signOptions: { algorithm: 'HS256' } })],
      controllers: [
        CriarLojaHttpController,
        AlterarSituacaoHttpController,
        RotacionarCodigoHttpController,
        RemoverAplicativoHttpController,
        AutenticarHttpController,
        LojaAtualHttpController,
        LojasMessageController,
      ],
      providers: [
        { provide: LOJAS_OPTIONS, useValue: options },
        { provide: APP_GUARD, useClass: BearerAuthGuard },
        AdminKeyGuard,
        TokenService,
        LojaStatusCache,
        LojaCommandsService,
        CriarLojaHandler,
        AutenticarHandler,
      ],
    };
  }
}
