import { agenteInicial, assistenteDeRastreio, decideAgente, evolveAgente, type AgenteEvent, type AgenteState } from './agente';

const given = (...events: AgenteEvent[]): AgenteState => events.reduce(evolveAgente, agenteInicial());

describe('agente', () => {
  const agente = assistenteDeRastreio(7, '2026-03-01T12:00:00.000Z');

  it('creates the built-in tracking assistant with both skills', () => {
    const events = decideAgente({ acao: 'criar', agente }, given());
    expect(events).toEqual([{ type: 'agente.criado', data: agente }]);
    expect(agente).toMatchObject({ idAgente: 'rastreio-7', nome: 'Assistente de rastreio', habilidades: ['rastreio', 'faq'], ativo: true });
  });

  it('creates an agent once, however often it is asked to', () => {
    expect(decideAgente({ acao: 'criar', agente }, given({ type: 'agente.criado', data: agente }))).toEqual([]);
  });
});
