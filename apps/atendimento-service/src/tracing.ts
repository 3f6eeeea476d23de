import { startTracing } from '@trilha/observability/tracing';

startTracing('atendimento-service');
