export * from './trace-context';
export * from './request-context';
export * from './logging';
export * from './ops-server';
