export * from './stack';
export * from './https-client';
export * from './service-logs';
export * from './replicas';
export * from './mcp-client';
export * from './webhook-receiver';
export * from './event-publisher';
