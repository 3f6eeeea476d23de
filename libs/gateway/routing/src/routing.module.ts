import { All, Controller, Get, Inject, Module, NotFoundException, Req, RequestMethod, Res, type DynamicModule, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { API_PREFIX, problem, sendProblem, type LimitedRequest } from '@trilha/http';
import { SecretParams, SemToken, type AuthenticatedRequest } from '@trilha/http';
import { setServerRoute } from '@trilha/observability';
import { apiCatalog, matchRoute, methodsOf, type ApiRoute, type OpenApiDocument } from './api-catalog';
import { ServiceForwarder, type ForwarderOptions } from './service-forwarder';

/** The service that renders the public tracking page. */
export const PUBLIC_PAGE_SERVICE = 'tracking-service';

type RoutedRequest = AuthenticatedRequest & LimitedRequest & { apiRoute?: ApiRoute };

const ROUTES = Symbol('API_ROUTES');
const SERVICES = Symbol('SERVICE_URLS');

/** What the router gives every /v1 request that no route of the gateway's own takes. */
const CATCH_ALL = `/${API_PREFIX}/*`;

/**
 * Fastify `onRequest` hook: matches every /v1 request the gateway does not serve itself
 * against the catalog, before authentication. An unknown path is a 404 whoever asks, a method
 * the path does not have a 405 with the ones it has in `Allow`; a route of another service
 * (one `services` has a URL for) is forwarded, with its own rate-limit counter and limit.
 */
function routeMatchHook(routes: ApiRoute[], services: ForwarderOptions['services']) {
  return (request: RoutedRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    if (request.routeOptions.url !== CATCH_ALL) return done();
    const path = request.url.split('?', 1)[0];
    // HEAD asks for what GET would answer, without the body (the service answers it so).
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    const route = matchRoute(routes, method, path.slice(`/${API_PREFIX}`.length));
    if (!route) {
      const allowed = methodsOf(routes, path.slice(`/${API_PREFIX}`.length));
      if (allowed.length === 0) return void sendProblem(reply, problem(404, `Rota não encontrada: ${request.method} ${path}.`, request.originalUrl));
      reply.header('Allow', allowed.join(', '));
      return void sendProblem(reply, problem(405, `${path} não aceita ${request.method}; aceita ${allowed.join(', ')}.`, request.originalUrl));
    }
    if (Object.hasOwn(services, route.service)) {
      request.apiRoute = route;
      setServerRoute(request, `/${API_PREFIX}${route.path}`);
      request.limitedRoute = { id: route.id, limitPerMinute: route.limitPerMinute };
      if (route.portalSession) request.portalSession = {};
    }
    done();
  };
}

@ApiExcludeController()
@Controller()
class ForwardingController {
  constructor(private readonly forwarder: ServiceForwarder) {}

  /** Whatever the gateway's own routes do not take: the router tries a wildcard last. */
  @All('*')
  async forward(@Req() request: RoutedRequest, @Res() reply: FastifyReply): Promise<void> {
    if (!request.apiRoute) throw new NotFoundException('Rota não encontrada.');
    await this.forwarder.forward(request.apiRoute.service, request, reply);
  }
}

/** The public tracking page (`/rastreio/<token>`, outside /v1, no token): rendered by the tracking service. */
@ApiExcludeController()
@Controller('rastreio')
@SemToken()
class PublicPageController {
  constructor(private readonly forwarder: ServiceForwarder) {}

  @Get(':token')
  @SecretParams('token')
  async page(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.forwarder.forward(PUBLIC_PAGE_SERVICE, request, reply);
  }
}

/** Routes outside the /v1 prefix. */
export const UNPREFIXED_ROUTES = [{ path: 'rastreio/:token', method: RequestMethod.GET }];

/**
 * The gateway's routing: every route of the OpenAPI document that another service serves is
 * forwarded to that service's internal port (`options.services`, by the service's name).
 */
@Module({})
export class GatewayRoutingModule implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @Inject(ROUTES) private readonly routes: ApiRoute[],
    @Inject(SERVICES) private readonly services: ForwarderOptions['services'],
  ) {}

  static register(document: OpenApiDocument, options: ForwarderOptions): DynamicModule {
    return {
      module: GatewayRoutingModule,
      controllers: [PublicPageController, ForwardingController],
      providers: [
        { provide: ROUTES, useValue: apiCatalog(document) },
        { provide: SERVICES, useValue: options.services },
        { provide: ServiceForwarder, useValue: new ServiceForwarder(options) },
      ],
    };
  }

  onModuleInit(): void {
    this.adapterHost.httpAdapter.getInstance<FastifyInstance>().addHook('onRequest', routeMatchHook(this.routes, this.services));
  }
}
