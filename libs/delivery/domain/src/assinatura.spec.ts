import { Webhook } from 'standardwebhooks';
import { assinar, assinarComTodos, gerarSegredo, segredosVigentes } from './assinatura';
import { corpoNotificacao } from './eventos';

describe('signature (Standard Webhooks)', () => {
  it('is what the standardwebhooks package verifies', () => {
    const segredo = gerarSegredo();
    expect(segredo).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const corpo = corpoNotificacao('atendimento.criado', { idAtendimento: 'a1', idLoja: 7 });
    const id = '0b3a2c1e-1111-4222-8333-444455556666';
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': assinar(segredo, id, timestamp, corpo) };
    expect(new Webhook(segredo).verify(corpo, headers)).toEqual({ evento: 'atendimento.criado', data: { idAtendimento: 'a1', idLoja: 7 } });
    expect(() => new Webhook(gerarSegredo()).verify(corpo, headers)).toThrow();
    expect(() => new Webhook(segredo).verify(`${corpo} `, headers)).toThrow();
  });
});

describe('secret rotation', () => {
  const agora = Date.parse('2026-03-01T12:00:00Z');
  const [antigo, novo] = [gerarSegredo(), gerarSegredo()];

  it('signs with both secrets during the overlap, new first, and with the new one after it', () => {
    expect(segredosVigentes({ segredo: novo, segredoAnterior: antigo, segredoAnteriorAte: agora + 1 }, agora)).toEqual([novo, antigo]);
    expect(segredosVigentes({ segredo: novo, segredoAnterior: antigo, segredoAnteriorAte: agora }, agora)).toEqual([novo]);
    expect(segredosVigentes({ segredo: novo, segredoAnterior: null, segredoAnteriorAte: null }, agora)).toEqual([novo]);
  });

  it('gives a webhook-signature that either secret verifies with the standardwebhooks package', () => {
    const corpo = corpoNotificacao('atendimento.criado', { idAtendimento: 'a1', idLoja: 7 });
    const id = '0b3a2c1e-1111-4222-8333-444455556666';
    const timestamp = Math.floor(Date.now() / 1000);
    const assinatura = assinarComTodos([novo, antigo], id, timestamp, corpo);
    expect(assinatura.split(' ')).toEqual([assinar(novo, id, timestamp, corpo), assinar(antigo, id, timestamp, corpo)]);
    const headers = { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': assinatura };
    for (const segredo of [novo, antigo]) expect(new Webhook(segredo).verify(corpo, headers)).toMatchObject({ evento: 'atendimento.criado' });
    expect(() => new Webhook(gerarSegredo()).verify(corpo, headers)).toThrow();
  });
});
