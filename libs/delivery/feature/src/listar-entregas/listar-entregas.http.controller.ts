import { Controller, createParamDecorator, Get, Query, type ExecutionContext } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdLoja, PortalSession } from '@trilha/http';
import { EntregasResponse } from './entrega.response';
import { ListarEntregasHandler } from './listar-entregas.handler';
import { ListarEntregasRequest } from './listar-entregas.request';

/** Whether the query string named `pagina`: the validated request has its default either way. */
const PaginaPedida = createParamDecorator((_data: unknown, context: ExecutionContext): boolean => context.switchToHttp().getRequest<{ query: Record<string, unknown> }>().query.pagina !== undefined);

@ApiTags('Webhook')
@PortalSession()
@ApiBearerAuth()
@Controller('webhook/entregas')
export class ListarEntregasHttpController {
  constructor(private readonly handler: ListarEntregasHandler) {}

  @Get()
  @ApiOperation({
    operationId: 'listarEntregas',
    summary: 'As entregas do webhook e suas tentativas, das mais recentes às mais antigas, por tipo de evento, status e período; página a página por `pagina` ou por `cursor`.',
  })
  @ApiOkResponse({ type: EntregasResponse })
  listar(@IdLoja() idLoja: number, @Query() query: ListarEntregasRequest, @PaginaPedida() paginaPedida: boolean): Promise<EntregasResponse> {
    return this.handler.execute(idLoja, query, paginaPedida);
  }
}
