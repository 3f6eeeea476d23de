import type { ServiceDefinition } from '@trilha/event-store';
import { ATENDIMENTO_SERVICE } from '@trilha/atendimento';
import { DELIVERY_SERVICE } from '@trilha/delivery';
import { API_GATEWAY_SERVICE } from '@trilha/lojas';
import { TRACKING_SERVICE } from '@trilha/tracking';

/**
 * The services whose routes make the public API: each one's `httpRoutes` (its definition). A
 * route added to one of those modules is documented, routed by the gateway to the service that
 * declares it, and described by the reference tool server, without anything else to edit.
 */
export const API_SOURCES: readonly Pick<ServiceDefinition, 'name' | 'httpRoutes'>[] = [API_GATEWAY_SERVICE, TRACKING_SERVICE, ATENDIMENTO_SERVICE, DELIVERY_SERVICE];
