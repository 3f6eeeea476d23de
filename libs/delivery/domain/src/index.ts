export * from './agenda';
export * from './assinatura';
export * from './chaveiro';
export * from './endereco';
export * from './entrega';
export * from './eventos';
export * from './resposta';
export * from './saude';
