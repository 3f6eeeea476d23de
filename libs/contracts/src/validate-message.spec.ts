import { randomUUID } from 'node:crypto';
import { ATENDIMENTO_CONTRACT, ATENDIMENTO_EVENT_TYPES, InvalidMessageError, messagesOn, parseEventMessage, schemaVersionWritten, type AtendimentoCriadoData, type AtendimentoMessage, type EventEnvelope, type TopicContract } from '.';

const data = {
  idAtendimento: 'a1',
  idLoja: 7,
  canal: 'chat',
  tipo: 'duvida',
  status: 'aberto',
  dadosCliente: { nome: 'Maria Silva', telefone: null, email: null },
  dataAbertura: '2026-03-01T10:00:00.000Z',
};
const message = (overrides: object = {}) => ({
  id: randomUUID(), type: 'atendimento.criado', schemaVersion: 1, occurredAt: '2026-03-01T10:00:00.000Z', idLoja: 7,
  correlationId: 'c', causationId: null, traceparent: null, data, ...overrides,
});
const problemsOf = (value: unknown, contract: TopicContract = ATENDIMENTO_CONTRACT) => {
  try {
    parseEventMessage(value, contract);
  } catch (error) {
    return (error as InvalidMessageError).problems;
  }
  return [];
};

describe('parseEventMessage, a tolerant reader', () => {
  it('reads fields it does not know in the envelope, the payload and its nested objects, and leaves them out', () => {
    const parsed = parseEventMessage<EventEnvelope<AtendimentoCriadoData>>(
      message({ particao: 3, data: { ...data, prioridade: 'alta', dadosCliente: { ...data.dadosCliente, cpf: '123' } } }),
      ATENDIMENTO_CONTRACT,
    );
    expect({ ...parsed, data: { ...parsed.data, dadosCliente: { ...parsed.data.dadosCliente } } }).toEqual({ ...message(), id: parsed.id, data });
  });

  it('reads a topic message, whose type (derived from the contract) narrows its data by event type', () => {
    const parsed = parseEventMessage<AtendimentoMessage>(message(), ATENDIMENTO_CONTRACT);
    const tipo = parsed.type === ATENDIMENTO_EVENT_TYPES.criado ? parsed.data.tipo : undefined;
    expect(tipo).toBe('duvida');
  });

  it('still validates every field it uses', () => {
    expect(problemsOf(message({ idLoja: 0, extra: 1 }))).toEqual(['idLoja: idLoja must not be less than 1']);
    expect(problemsOf(message({ data: { ...data, canal: 'pombo', extra: 1, dadosCliente: {} } }))).toEqual([
      'data.canal: canal must be one of the following values: whatsapp, chat, email, telefone, marketplace',
      'data.dadosCliente.nome: nome must be shorter than or equal to 150 characters',
      'data.dadosCliente.nome: nome must be a string',
    ]);
  });

  it('reads every schemaVersion its contract lists, and refuses others and unknown types', () => {
    const contract: TopicContract = { 'atendimento.criado': { ...ATENDIMENTO_CONTRACT['atendimento.criado'], schemaVersions: [1, 2] } };
    expect(problemsOf(message({ schemaVersion: 1 }), contract)).toEqual([]);
    expect(problemsOf(message({ schemaVersion: 2 }), contract)).toEqual([]);
    expect(problemsOf(message({ schemaVersion: 3 }), contract)).toEqual(['schemaVersion: atendimento.criado is read in versions 1, 2, not 3']);
    expect(problemsOf(message({ type: 'atendimento.reaberto' }))).toEqual(['type: unknown event type atendimento.reaberto']);
  });

  it('has producers write the newest version listed', () => {
    expect(schemaVersionWritten({ x: { data: Object, schemaVersions: [1, 2] } }, 'x')).toBe(2);
    expect(() => schemaVersionWritten(ATENDIMENTO_CONTRACT, 'x')).toThrow('no contract for event type x');
    const onX = messagesOn('x.v2', { x: { data: Object, schemaVersions: [1, 2] } });
    expect(onX('x', { a: 1 })).toEqual({ topic: 'x.v2', schemaVersion: 2, data: { a: 1 } });
  });
});
