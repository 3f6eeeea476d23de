export * from './trace-context';
export * from './request-context';
export * from './logging';
export * from './logged-url';
export * from './ops-server';
export * from './request-metrics';
export * from './listener-timeouts';
