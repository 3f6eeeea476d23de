import { evoluirSaude, motivoDesativacao, SAUDE_INICIAL, taxaSucesso, type TentativaFeita } from './saude';

const DIA = 86_400_000;
const t0 = Date.parse('2026-03-01T12:00:00Z');
const falha = (em: number, statusHttp: number | null = 500): TentativaFeita => ({ ok: false, em, statusHttp, erro: statusHttp ? `status ${statusHttp}, esperado 200` : 'conexão recusada' });
const sucesso = (em: number): TentativaFeita => ({ ok: true, em, statusHttp: 200, erro: null });
const apos = (...tentativas: TentativaFeita[]) => tentativas.reduce(evoluirSaude, SAUDE_INICIAL);

describe('endpoint health', () => {
  it('counts failures in a row since the last 200, and when they began', () => {
    expect(apos(falha(t0), falha(t0 + 1000, null))).toEqual({ ultimaEntrega: null, ultimaFalha: t0 + 1000, ultimoErro: 'conexão recusada', falhasSeguidas: 2, falhandoDesde: t0 });
    expect(apos(falha(t0), sucesso(t0 + 1000))).toEqual({ ultimaEntrega: t0 + 1000, ultimaFalha: t0, ultimoErro: 'status 500, esperado 200', falhasSeguidas: 0, falhandoDesde: null });
    expect(apos(falha(t0), sucesso(t0 + 1000), falha(t0 + 2000))).toMatchObject({ falhasSeguidas: 1, falhandoDesde: t0 + 2000, ultimaEntrega: t0 + 1000 });
  });

  it('deactivates on 410 Gone at once', () => {
    const tentativas = [falha(t0, 410)];
    expect(motivoDesativacao(apos(...tentativas), tentativas, 5 * DIA, t0)).toMatch(/410 Gone/);
  });

  it('deactivates when every attempt failed for the configured period, not before', () => {
    const tentativas = [falha(t0), falha(t0 + 5 * DIA - 1)];
    expect(motivoDesativacao(apos(...tentativas), tentativas.slice(1), 5 * DIA, t0 + 5 * DIA - 1)).toBeNull();
    const depois = [...tentativas, falha(t0 + 5 * DIA)];
    expect(motivoDesativacao(apos(...depois), depois.slice(2), 5 * DIA, t0 + 5 * DIA)).toBe('Todas as tentativas falharam desde 2026-03-01T12:00:00.000Z (3 seguidas).');
    const comSucesso = [falha(t0), sucesso(t0 + DIA), falha(t0 + 5 * DIA)];
    expect(motivoDesativacao(apos(...comSucesso), comSucesso.slice(2), 5 * DIA, t0 + 5 * DIA)).toBeNull();
  });

  it('gives the success rate, or null without attempts', () => {
    expect(taxaSucesso(0, 0)).toBeNull();
    expect(taxaSucesso(3, 0)).toBe(1);
    expect(taxaSucesso(1, 2)).toBe(0.3333);
  });
});
