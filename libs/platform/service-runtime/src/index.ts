export * from './run-service';
export * from './run-internal-service';
