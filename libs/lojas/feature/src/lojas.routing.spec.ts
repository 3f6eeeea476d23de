import type { LojaEvent } from '@trilha/lojas-domain';
import { lojasRouting } from './lojas.routing';

const envelope = { id: 'e1', schemaVersion: 1, idLoja: 42, correlationId: 'c', causationId: null, traceparent: null, streamId: 'loja-42', streamVersion: 1 };
const routed = (event: LojaEvent) => lojasRouting({ ...envelope, ...event });

describe('lojasRouting', () => {
  it('publishes every store event to lojas.events.v1 without the code hash', () => {
    const agora = '2026-03-01T12:00:00.000Z';
    expect(routed({ type: 'loja.criada', data: { idLoja: 42, nome: 'Loja', codigoHash: 'segredo', criadaEm: agora } })).toEqual([
      { topic: 'lojas.events.v1', schemaVersion: 1, data: { idLoja: 42, nome: 'Loja', criadaEm: agora } },
    ]);
    expect(routed({ type: 'loja.desativada', data: { idLoja: 42, dataDesativacao: agora } })[0].data).toEqual({ idLoja: 42, dataDesativacao: agora });
    expect(routed({ type: 'loja.ativada', data: { idLoja: 42, dataAtivacao: agora } })[0].data).toEqual({ idLoja: 42, dataAtivacao: agora });
    expect(routed({ type: 'loja.codigo.rotacionado', data: { idLoja: 42, codigoHash: 'segredo', dataRotacao: agora } })).toEqual([
      { topic: 'lojas.events.v1', schemaVersion: 1, data: { idLoja: 42, dataRotacao: agora } },
    ]);
    expect(routed({ type: 'aplicativo.removido', data: { idLoja: 42, dataRemocao: agora } })[0].data).toEqual({ idLoja: 42, dataRemocao: agora });
  });
});
