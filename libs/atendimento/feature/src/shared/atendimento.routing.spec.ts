import type { AtendimentoServiceEvent } from '@trilha/atendimento-domain';
import { atendimentoRouting } from './atendimento.routing';

const T0 = '2026-03-01T12:00:00.000Z';
const envelope = { id: 'e1', schemaVersion: 1, idLoja: 7, correlationId: 'c', causationId: null, traceparent: null, streamId: 'atendimento-a1', streamVersion: 1 };
const routed = (event: AtendimentoServiceEvent) => atendimentoRouting({ ...envelope, ...event });
const dadosCliente = { nome: 'Maria Silva', telefone: '+5511999990000', email: null };

describe('atendimentoRouting', () => {
  it('publishes exactly the fields of docs/API.md section 7', () => {
    const [criado] = routed({
      type: 'atendimento.criado',
      data: { idAtendimento: 'a1', idLoja: 7, canal: 'whatsapp', tipo: 'rastreio', status: 'aberto', dadosCliente, dataAbertura: T0, idPedido: 'p1' },
    });
    const [mensagem] = routed({
      type: 'atendimento.mensagem',
      data: { idAtendimento: 'a1', idLoja: 7, canal: 'whatsapp', idMensagem: 'm1', direcao: 'entrada', remetente: 'cliente', mensagem: 'oi', dataHora: T0 },
    });
    const [encerrado] = routed({
      type: 'atendimento.encerrado',
      data: { idAtendimento: 'a1', idLoja: 7, canal: 'whatsapp', status: 'encerrado', dataEncerramento: T0, resumo: 'ok' },
    });
    expect([criado.topic, mensagem.topic, encerrado.topic]).toEqual(['atendimento.events.v1', 'atendimento.events.v1', 'atendimento.events.v1']);
    expect(Object.keys(criado.data).sort()).toEqual(['canal', 'dadosCliente', 'dataAbertura', 'idAtendimento', 'idLoja', 'status', 'tipo']);
    expect(Object.keys(mensagem.data).sort()).toEqual(['canal', 'dataHora', 'direcao', 'idAtendimento', 'idLoja', 'mensagem', 'remetente']);
    expect(Object.keys(encerrado.data).sort()).toEqual(['canal', 'dataEncerramento', 'idAtendimento', 'idLoja', 'resumo', 'status']);
  });

  it('keeps agent events private', () => {
    const agente = { idAgente: 'g1', idLoja: 7, nome: 'Ana', descricao: '', habilidades: [], faq: [], ativo: true, criadoEm: T0 };
    expect(routed({ type: 'agente.criado', data: agente })).toEqual([]);
  });
});
