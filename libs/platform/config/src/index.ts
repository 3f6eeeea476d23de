export * from './load-config';
export * from './settings';
