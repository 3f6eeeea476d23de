export * from './internal-headers';
export * from './decorators';
export * from './internal-caller.guard';
