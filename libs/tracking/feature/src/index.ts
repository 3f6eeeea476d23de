export * from './tracking.definition';
export * from './tracking.module';
export * from './tracking.options';
