import { startTracing } from '@trilha/observability/tracing';

startTracing('delivery-service');
