export * from './loja';
