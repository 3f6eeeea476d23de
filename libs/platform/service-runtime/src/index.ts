export * from './run-service';
export * from './run-internal-service';
export * from './service-spec';
