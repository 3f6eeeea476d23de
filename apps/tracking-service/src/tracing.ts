import { startTracing } from '@trilha/observability/tracing';

startTracing('tracking-service');
