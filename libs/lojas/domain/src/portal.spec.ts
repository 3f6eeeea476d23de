import { sessaoPortalPermite, situacaoLinkPortal } from './portal';

describe('portal access', () => {
  const agora = Date.parse('2026-01-01T12:00:00.000Z');

  it('opens a link once, within its window', () => {
    expect(situacaoLinkPortal({ usadoEm: null, expiraEm: new Date(agora + 1) }, agora)).toBe('valido');
    expect(situacaoLinkPortal({ usadoEm: null, expiraEm: new Date(agora) }, agora)).toBe('expirado');
    // A used link says so, even once its window has passed: the store is told why.
    expect(situacaoLinkPortal({ usadoEm: new Date(agora - 5), expiraEm: new Date(agora - 1) }, agora)).toBe('usado');
  });

  it('lets a ver session only read, save where the operation allows it a change', () => {
    expect(['GET', 'HEAD'].map((metodo) => sessaoPortalPermite('ver', metodo))).toEqual([true, true]);
    expect(['POST', 'PUT', 'PATCH', 'DELETE'].map((metodo) => sessaoPortalPermite('ver', metodo))).toEqual([false, false, false, false]);
    expect(sessaoPortalPermite('ver', 'DELETE', true)).toBe(true);
    expect(['GET', 'POST', 'DELETE'].map((metodo) => sessaoPortalPermite('gerenciar', metodo))).toEqual([true, true, true]);
  });
});
