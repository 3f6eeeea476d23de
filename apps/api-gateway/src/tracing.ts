import { startTracing } from '@trilha/observability/tracing';

startTracing('api-gateway');
