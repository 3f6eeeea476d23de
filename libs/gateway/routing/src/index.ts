export * from './api-catalog';
export * from './routing.module';
