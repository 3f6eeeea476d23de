export * from './lojas.definition';
export * from './lojas.module';
export * from './lojas.options';
