import { Webhook } from 'standardwebhooks';
import { assinar, gerarSegredo } from './assinatura';
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
