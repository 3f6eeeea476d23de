import { Module, type DynamicModule } from '@nestjs/common';
import { ConsultarPedidoHandler } from './consultar-pedido/consultar-pedido.handler';
import { ConsultarPedidoHttpController } from './consultar-pedido/consultar-pedido.http.controller';
import { ConsultarRastreioHandler } from './consultar-rastreio/consultar-rastreio.handler';
import { ConsultarRastreioHttpController } from './consultar-rastreio/consultar-rastreio.http.controller';
import { CorrigirEventoHandler } from './corrigir-evento/corrigir-evento.handler';
import { CorrigirEventoHttpController } from './corrigir-evento/corrigir-evento.http.controller';
import { ListarPedidosHandler } from './listar-pedidos/listar-pedidos.handler';
import { ListarPedidosHttpController } from './listar-pedidos/listar-pedidos.http.controller';
import { PaginaPublicaHandler } from './pagina-publica/pagina-publica.handler';
import { PaginaPublicaHttpController } from './pagina-publica/pagina-publica.http.controller';
import { PedidoCommands } from './pedido-commands.service';
import { RegistrarEventoHandler } from './registrar-evento/registrar-evento.handler';
import { RegistrarEventoHttpController } from './registrar-evento/registrar-evento.http.controller';
import { SalvarPedidoHandler } from './salvar-pedido/salvar-pedido.handler';
import { SalvarPedidoHttpController } from './salvar-pedido/salvar-pedido.http.controller';
import { TRACKING_OPTIONS, type TrackingOptions } from './tracking.options';

/**
 * Orders and manual shipment tracking (docs/API.md sections 3–4) and the public tracking page.
 * Needs the service's EventStoreModule (event store, data source).
 */
@Module({})
export class TrackingModule {
  static register(options: TrackingOptions): DynamicModule {
    return {
      module: TrackingModule,
      controllers: [
        SalvarPedidoHttpController,
        ConsultarPedidoHttpController,
        ListarPedidosHttpController,
        RegistrarEventoHttpController,
        CorrigirEventoHttpController,
        ConsultarRastreioHttpController,
        PaginaPublicaHttpController,
      ],
      providers: [
        { provide: TRACKING_OPTIONS, useValue: options },
        PedidoCommands,
        SalvarPedidoHandler,
        ConsultarPedidoHandler,
        ListarPedidosHandler,
        RegistrarEventoHandler,
        CorrigirEventoHandler,
        ConsultarRastreioHandler,
        PaginaPublicaHandler,
      ],
    };
  }
}
