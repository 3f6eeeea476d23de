import { decideLoja, evolveLoja, lojaInicial, LojaJaExiste, LojaNaoEncontrada, tokenAceito, type LojaEvent, type LojaState } from './loja';

const criada: LojaEvent = { type: 'loja.criada', data: { idLoja: 7, nome: 'Loja', codigoHash: 'h', criadaEm: '2026-01-01T00:00:00.000Z' } };
const given = (...events: LojaEvent[]): LojaState => events.reduce(evolveLoja, lojaInicial());

describe('loja', () => {
  it('creates an active store', () => {
    const events = decideLoja({ acao: 'criar', idLoja: 7, nome: 'Loja', codigoHash: 'h', agora: '2026-01-01T00:00:00.000Z' }, given());
    expect(events).toEqual([criada]);
    expect(given(...events)).toMatchObject({ existe: true, ativa: true });
  });

  it('refuses to create a store twice', () => {
    expect(() => decideLoja({ acao: 'criar', idLoja: 7, nome: 'Loja', codigoHash: 'h', agora: 'x' }, given(criada))).toThrow(LojaJaExiste);
  });

  it('refuses commands on an unknown store', () => {
    expect(() => decideLoja({ acao: 'desativar', agora: 'x' }, given())).toThrow(LojaNaoEncontrada);
  });

  it('deactivates once, revoking earlier tokens; deactivating again changes nothing', () => {
    const events = decideLoja({ acao: 'desativar', agora: '2026-01-02T00:00:00.000Z' }, given(criada));
    expect(events).toEqual([{ type: 'loja.desativada', data: { idLoja: 7, dataDesativacao: '2026-01-02T00:00:00.000Z' } }]);
    expect(decideLoja({ acao: 'desativar', agora: 'y' }, given(criada, ...events))).toEqual([]);
  });

  it('activates an inactive store only', () => {
    expect(decideLoja({ acao: 'ativar', agora: 'y' }, given(criada))).toEqual([]);
    const desativada: LojaEvent = { type: 'loja.desativada', data: { idLoja: 7, dataDesativacao: 'x' } };
    expect(decideLoja({ acao: 'ativar', agora: 'y' }, given(criada, desativada))).toEqual([
      { type: 'loja.ativada', data: { idLoja: 7, dataAtivacao: 'y' } },
    ]);
  });

  it('replaces the code of an active or inactive store, revoking every token issued before', () => {
    const rotacionado: LojaEvent = { type: 'loja.codigo.rotacionado', data: { idLoja: 7, codigoHash: 'h2', dataRotacao: '2026-01-03T00:00:00.000Z' } };
    expect(decideLoja({ acao: 'rotacionarCodigo', codigoHash: 'h2', agora: '2026-01-03T00:00:00.000Z' }, given(criada))).toEqual([rotacionado]);
    expect(given(criada, rotacionado)).toMatchObject({ ativa: true, tokensRevogadosAntes: '2026-01-03T00:00:00.000Z' });
    const desativada: LojaEvent = { type: 'loja.desativada', data: { idLoja: 7, dataDesativacao: '2026-01-02T00:00:00.000Z' } };
    expect(decideLoja({ acao: 'rotacionarCodigo', codigoHash: 'h2', agora: '2026-01-03T00:00:00.000Z' }, given(criada, desativada))).toEqual([rotacionado]);
    expect(given(criada, desativada, rotacionado)).toMatchObject({ ativa: false, tokensRevogadosAntes: '2026-01-03T00:00:00.000Z' });
  });

  it('refuses to rotate the code of an unknown store', () => {
    expect(() => decideLoja({ acao: 'rotacionarCodigo', codigoHash: 'h2', agora: 'x' }, given())).toThrow(LojaNaoEncontrada);
  });

  it('records every app removal', () => {
    expect(decideLoja({ acao: 'removerAplicativo', agora: 'z' }, given(criada))).toEqual([
      { type: 'aplicativo.removido', data: { idLoja: 7, dataRemocao: 'z' } },
    ]);
  });
});

describe('tokenAceito', () => {
  const desativadaEm = '2026-01-02T00:00:00.000Z';
  it('accepts tokens of an active store that was never deactivated', () => {
    expect(tokenAceito({ ativa: true, tokensRevogadosAntes: null }, 0)).toBe(true);
  });
  it('refuses every token of an inactive or unknown store', () => {
    expect(tokenAceito({ ativa: false, tokensRevogadosAntes: desativadaEm }, Date.now())).toBe(false);
    expect(tokenAceito(undefined, Date.now())).toBe(false);
  });
  it('keeps tokens issued before a deactivation revoked after reactivation', () => {
    expect(tokenAceito({ ativa: true, tokensRevogadosAntes: desativadaEm }, Date.parse(desativadaEm) - 1)).toBe(false);
    expect(tokenAceito({ ativa: true, tokensRevogadosAntes: desativadaEm }, Date.parse(desativadaEm) + 1)).toBe(true);
  });
});
