// Payload classes use class-transformer's @Type, which reads design-time type metadata.
import 'reflect-metadata';

export * from './envelope';
export * from './topics';
export * from './validate-message';
export { compileReader, type CompiledReader } from './compiled-reader';
export * from './lojas.events.v1';
export * from './tracking.events.v1';
export * from './atendimento.events.v1';
export * from './notifications';
export * from './contracts';
