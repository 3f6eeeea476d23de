export * from './api-catalog';
export * from './routing.module';
export { CONNECTIONS_PER_SERVICE } from './service-forwarder';
