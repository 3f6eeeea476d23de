export * from './loja';
export * from './portal';
