export * from './lojas.module';
export * from './lojas.options';
export * from './lojas.projection';
export * from './lojas.routing';

export { Lojas1732000000100 } from './migrations/1732000000100-lojas';
