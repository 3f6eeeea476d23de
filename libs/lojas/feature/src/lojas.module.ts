import { Module, type DynamicModule } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { JwtModule } from '@nestjs/jwt';
import { createSecretKey } from 'node:crypto';
import { AbrirSessaoPortalHandler } from './abrir-sessao-portal/abrir-sessao-portal.handler';
import { AbrirSessaoPortalHttpController } from './abrir-sessao-portal/abrir-sessao-portal.http.controller';
import { AdminKeyGuard } from './auth/admin-key.guard';
import { CredenciaisPortalExpiradas } from './auth/credenciais-portal-expiradas';
import { LojaAuthGuard } from './auth/loja-auth.guard';
import { LojaStatusCache } from './auth/loja-status.cache';
import { LojasMessageController } from './auth/lojas.message.controller';
import { SessoesPortalService } from './auth/sessoes-portal.service';
import { TokenService } from './auth/token.service';
import { AlterarSituacaoHttpController } from './alterar-situacao/alterar-situacao.http.controller';
import { AutenticarHandler } from './autenticar/autenticar.handler';
import { AutenticarHttpController } from './autenticar/autenticar.http.controller';
import { CriarLojaHandler } from './criar-loja/criar-loja.handler';
import { CriarLojaHttpController } from './criar-loja/criar-loja.http.controller';
import { CriarLinkPortalHandler } from './criar-link-portal/criar-link-portal.handler';
import { CriarLinkPortalAdminHttpController, CriarLinkPortalHttpController } from './criar-link-portal/criar-link-portal.http.controller';
import { EncerrarSessoesPortalHttpController } from './encerrar-sessoes-portal/encerrar-sessoes-portal.http.controller';
import { LojaAtualHttpController } from './loja-atual/loja-atual.http.controller';
import { LojaCommandsService } from './loja-commands.service';
import { LOJAS_OPTIONS, type LojasOptions } from './lojas.options';
import { RemoverAplicativoHttpController } from './remover-aplicativo/remover-aplicativo.http.controller';
import { RotacionarCodigoHttpController } from './rotacionar-codigo/rotacionar-codigo.http.controller';
import { SessaoPortalHttpController } from './sessao-portal/sessao-portal.http.controller';

/**
 * Stores, authentication and access to the store portal (docs/API.md sections 1, 2 and 11).
 * Installs the store authentication guard (a Bearer token, or a portal session where
 * an operation accepts one) for every route of the app; routes marked @SemToken() opt out.
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
        CriarLinkPortalHttpController,
        CriarLinkPortalAdminHttpController,
        AbrirSessaoPortalHttpController,
        SessaoPortalHttpController,
        EncerrarSessoesPortalHttpController,
        LojasMessageController,
      ],
      providers: [
        { provide: LOJAS_OPTIONS, useValue: options },
        { provide: APP_GUARD, useClass: LojaAuthGuard },
        AdminKeyGuard,
        TokenService,
        LojaStatusCache,
        LojaCommandsService,
        CriarLojaHandler,
        AutenticarHandler,
        SessoesPortalService,
        CriarLinkPortalHandler,
        AbrirSessaoPortalHandler,
        CredenciaisPortalExpiradas,
      ],
    };
  }
}
