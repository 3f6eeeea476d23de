export * from './problem';
export * from './problem.filter';
export * from './validation';
export * from './request-id.middleware';
export * from './https-only.middleware';
export * from './body-parser';
export * from './rate-limit/calendar-minute';
export * from './rate-limit/rate-limit.module';
