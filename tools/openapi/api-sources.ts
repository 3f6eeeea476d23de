import type { DynamicModule, Type } from '@nestjs/common';
import { AtendimentoHttpModule } from '@trilha/atendimento';
import { DeliveryHttpModule } from '@trilha/delivery';
import { LojasModule } from '@trilha/lojas';
import { TrackingModule } from '@trilha/tracking';

/**
 * Where the public API's routes are declared: each service's HTTP module. A route added to one
 * of these modules is documented, routed by the gateway and described by the reference tool
 * server without anything else to edit.
 */
export const API_SOURCES: { service: string; module: () => DynamicModule | Type }[] = [
  {
    service: 'api-gateway',
    // Options only shape what the module would do at run time; documentation needs none of it.
    module: () => LojasModule.register({ tokenSecret: 'documentation-only-'.padEnd(32, '-'), tokenTtlSeconds: 3600 }),
  },
  { service: 'tracking-service', module: () => TrackingModule.register({ publicBaseUrl: 'https://documentation.invalid' }) },
  { service: 'atendimento-service', module: () => AtendimentoHttpModule },
  { service: 'delivery-service', module: () => DeliveryHttpModule },
];
