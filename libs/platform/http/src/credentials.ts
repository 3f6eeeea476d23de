import { Header } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { SECRET_PARAMS } from '@trilha/observability';

/** Route parameters that carry a credential: request logs and spans show `…` for their value. */
export const SecretParams = (...names: string[]) => RouteConfig({ [SECRET_PARAMS]: names });

/**
 * A route whose answer carries a credential (a token, an account code, a webhook secret, a
 * tracking link): `Cache-Control: no-store`, so no cache, shared or the client's own, keeps a copy.
 */
export const CarriesCredential = () => Header('Cache-Control', 'no-store');
