import { All, Controller, Get, Inject, Injectable, Module, NotFoundException, Req, RequestMethod, Res, type DynamicModule, type MiddlewareConsumer, type NestMiddleware, type NestModule } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { NextFunction, Request, Response } from 'express';
import { API_PREFIX, problem, sendProblem, type LimitedRequest } from '@trilha/http';
import { SemToken, type AuthenticatedRequest } from '@trilha/http';
import { apiCatalog, matchRoute, type ApiRoute, type OpenApiDocument } from './api-catalog';
import { ServiceForwarder, type ForwarderOptions } from './service-forwarder';

export const GATEWAY_SERVICE = 'api-gateway';
/** The service that renders the public tracking page. */
export const PUBLIC_PAGE_SERVICE = 'tracking-service';

type RoutedRequest = AuthenticatedRequest & LimitedRequest & { apiRoute?: ApiRoute };

const ROUTES = Symbol('API_ROUTES');

/**
 * Matches every /v1 request against the catalog before authentication: an unknown route is a
 * 404 whoever asks; a forwarded one gets its own rate-limit counter and limit.
 */
@Injectable()
class RouteMatchMiddleware implements NestMiddleware {
  private readonly prefix = `/${API_PREFIX}`;

  constructor(@Inject(ROUTES) private readonly routes: ApiRoute[]) {}

  use(request: RoutedRequest, response: Response, next: NextFunction): void {
    if (!request.path.startsWith(`${this.prefix}/`)) return next();
    const route = matchRoute(this.routes, request.method, request.path.slice(this.prefix.length));
    if (!route) return sendProblem(response, problem(404, `Rota não encontrada: ${request.method} ${request.path}.`, request.originalUrl));
    if (route.service !== GATEWAY_SERVICE) {
      request.apiRoute = route;
      request.limitedRoute = { id: route.id, limitPerMinute: route.limitPerMinute };
    }
    next();
  }
}

@ApiExcludeController()
@Controller()
class ForwardingController {
  constructor(private readonly forwarder: ServiceForwarder) {}

  /** Registered last: whatever the gateway's own controllers did not take. */
  @All('{*path}')
  async forward(@Req() request: RoutedRequest, @Res() response: Response): Promise<void> {
    if (!request.apiRoute) throw new NotFoundException('Rota não encontrada.');
    await this.forwarder.forward(request.apiRoute.service, request, response);
  }
}

/** The public tracking page (`/rastreio/<token>`, outside /v1, no token): rendered by the tracking service. */
@ApiExcludeController()
@Controller('rastreio')
@SemToken()
class PublicPageController {
  constructor(private readonly forwarder: ServiceForwarder) {}

  @Get(':token')
  async page(@Req() request: Request, @Res() response: Response): Promise<void> {
    await this.forwarder.forward(PUBLIC_PAGE_SERVICE, request, response);
  }
}

/** Routes outside the /v1 prefix. */
export const UNPREFIXED_ROUTES = [{ path: 'rastreio/:token', method: RequestMethod.GET }];

/**
 * The gateway's routing: every route of the OpenAPI document that another service serves is
 * forwarded to that service's internal port. Import it after the modules with local routes.
 */
@Module({})
export class GatewayRoutingModule implements NestModule {
  static register(document: OpenApiDocument, options: ForwarderOptions): DynamicModule {
    return {
      module: GatewayRoutingModule,
      controllers: [PublicPageController, ForwardingController],
      providers: [
        { provide: ROUTES, useValue: apiCatalog(document) },
        { provide: ServiceForwarder, useValue: new ServiceForwarder(options) },
      ],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(RouteMatchMiddleware).forRoutes({ path: '{*path}', method: RequestMethod.ALL });
  }
}
