import { plainToInstance, Type } from 'class-transformer';
import { IsIn, IsString, Matches, ValidateNested, validateSync } from 'class-validator';
import { compileReader } from './compiled-reader';
import { EventEnvelopeMessage } from './envelope';
import { ATENDIMENTO_CONTRACT, LOJAS_CONTRACT, parseEventMessage, TRACKING_CONTRACT, type TopicContract } from '.';

const ISO = '2026-03-01T10:00:00.000Z';
const pedido = { idPedido: 'p1', numeroPedido: 'N-1', tipoPedido: 'envio', pedidoCanal: null, linkRastreio: 'https://trilha.example/rastreio/t1' };
const volume = { ...pedido, chaveEnvio: 'BR1', origemChave: 'codigoRastreio', codigoRastreio: 'BR1', chaveNFe: null, identificador: null, codigoEnvio: null, rotulo: null };
const evento = { ...volume, hash: 'a'.repeat(40), dataHora: ISO, descricao: 'Saiu para entrega', sigla: 'OUT', visivelClienteFinal: true };

/** A valid payload of every event type of every topic. */
const SAMPLES: Record<string, { contract: TopicContract; data: Record<string, unknown> }> = {
  'atendimento.criado': {
    contract: ATENDIMENTO_CONTRACT,
    data: { idAtendimento: 'a1', idLoja: 7, canal: 'chat', tipo: 'duvida', status: 'aberto', dadosCliente: { nome: 'Maria', telefone: null, email: 'm@x.com' }, dataAbertura: ISO },
  },
  'atendimento.mensagem': {
    contract: ATENDIMENTO_CONTRACT,
    data: { idAtendimento: 'a1', idLoja: 7, canal: 'chat', direcao: 'entrada', remetente: 'Maria', mensagem: 'Olá', dataHora: ISO },
  },
  'atendimento.encerrado': {
    contract: ATENDIMENTO_CONTRACT,
    data: { idAtendimento: 'a1', idLoja: 7, canal: 'chat', status: 'encerrado', dataEncerramento: ISO, resumo: 'Resolvido' },
  },
  'loja.criada': { contract: LOJAS_CONTRACT, data: { idLoja: 7, nome: 'Loja', criadaEm: ISO } },
  'loja.desativada': { contract: LOJAS_CONTRACT, data: { idLoja: 7, dataDesativacao: ISO } },
  'loja.ativada': { contract: LOJAS_CONTRACT, data: { idLoja: 7, dataAtivacao: ISO } },
  'loja.codigo.rotacionado': { contract: LOJAS_CONTRACT, data: { idLoja: 7, dataRotacao: ISO } },
  'aplicativo.removido': { contract: LOJAS_CONTRACT, data: { idLoja: 7, dataRemocao: ISO } },
  'pedido.salvo': { contract: TRACKING_CONTRACT, data: { ...pedido, situacao: 'novo', atualizadoEm: ISO, canalVenda: null } },
  'rastreio.evento.registrado': { contract: TRACKING_CONTRACT, data: { ...evento, origem: 'api', encerraVolume: false } },
  'rastreio.evento.corrigido': { contract: TRACKING_CONTRACT, data: evento },
};

const envelope = (type: string, data: object) => ({
  id: '0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b', type, schemaVersion: 1, occurredAt: ISO, idLoja: 7, correlationId: 'c1', causationId: null, traceparent: null, data,
});

/** class-validator's verdict on a value as `cls`: its problems, and the value stripped to what the class declares. */
function classValidator(cls: new () => object, value: unknown): { valid: boolean; read: unknown } {
  const instance = plainToInstance(cls, value);
  const valid = typeof instance === 'object' && instance !== null && !Array.isArray(instance) && validateSync(instance, { whitelist: true }).length === 0;
  return { valid, read: JSON.parse(JSON.stringify(instance ?? null)) };
}

/** JSON with every object's keys in order: the same fields and values, whatever order they were set in. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_, item: unknown) =>
    typeof item === 'object' && item !== null && !Array.isArray(item) ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => a.localeCompare(b))) : item,
  );

/** A deterministic generator (mulberry32), so a failure is repeated by its seed. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Values near every constraint the contracts use: lengths at and past their limits, code points, dates, ids, types. */
const VALUES: unknown[] = [
  undefined, null, '', 'x', 0, -1, 1, 1.5, 2 ** 53, true, false, [], [{}], {}, { nome: 'N' }, 'constructor',
  ...[19, 20, 21, 30, 31, 40, 41, 50, 51, 100, 101, 150, 151, 255, 256, 500, 501, 2000, 2001, 4000, 4001].flatMap((length) => ['y'.repeat(length), '😀'.repeat(length), `${'z'.repeat(length - 1)}\uFE0F`]),
  '2026-03-01', '2026-02-30T10:00:00Z', '2026-03-01T10:00:00+03:00', '2026-03-01t10:00:00z', '2026-03-01T23:59:60Z', '2026-W09', '2026-060', '2026-03-01 10:00:00Z',
  '0193A1B2-C3D4-7E5F-8A9B-0C1D2E3F4A5B', 'urn:uuid:0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b', '0193a1b2-c3d4-0e5f-0a9b-0c1d2e3f4a5b',
  '1'.repeat(44), '1'.repeat(43), 'f'.repeat(40), 'F'.repeat(40), '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
  'envio', 'reversa', 'chat', 'pombo', 'aberto', 'encerrado', 'entrada', 'codigoRastreio', 'novo',
];

/** `value` with a field set to one of VALUES (or removed), at the top, in `data`, or in an object within `data`. */
function mutate(value: Record<string, unknown>, next: () => number): Record<string, unknown> {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)];
  const copy = structuredClone(value);
  const isObject = (item: unknown): item is Record<string, unknown> => typeof item === 'object' && item !== null && !Array.isArray(item);
  const targets = [copy, ...[copy.data].filter(isObject).flatMap((data) => [data, ...Object.values(data).filter(isObject)])];
  const target = pick(targets);
  const field = next() < 0.1 ? 'extra' : pick(Object.keys(target));
  const replacement = pick(VALUES);
  if (replacement === undefined) delete target[field];
  else target[field] = replacement;
  return copy;
}

describe('compileReader: class-validator, compiled', () => {
  it('reads a valid message of every event type of every topic as class-validator does', () => {
    const types = [ATENDIMENTO_CONTRACT, LOJAS_CONTRACT, TRACKING_CONTRACT].flatMap((contract) => Object.keys(contract));
    expect(Object.keys(SAMPLES).sort()).toEqual(types.sort());
    for (const [type, { contract, data }] of Object.entries(SAMPLES)) {
      const message = { ...envelope(type, { ...data, extra: 1 }), particao: 3 };
      const read = compileReader(contract[type].data)(message.data);
      expect(read).toEqual(classValidator(contract[type].data, message.data).read);
      expect(read).toEqual(data);
      expect(compileReader(EventEnvelopeMessage)(message)).toEqual({ ...envelope(type, message.data) });
      expect(parseEventMessage(message, contract)).toEqual(envelope(type, data));
    }
  });

  it('accepts only what class-validator accepts, stripped to the same fields, unknown ones refused where asked (20,000 messages near every constraint)', () => {
    const next = random(33);
    const seen = { accepted: 0, refused: 0 };
    const types = Object.keys(SAMPLES);
    for (let index = 0; index < 20_000; index += 1) {
      const type = types[index % types.length];
      const { contract, data } = SAMPLES[type];
      let message = envelope(type, data) as Record<string, unknown>;
      for (let mutations = 1 + Math.floor(next() * 3); mutations > 0; mutations -= 1) message = mutate(message, next);
      const checked = [
        { cls: EventEnvelopeMessage, value: message },
        { cls: contract[type].data, value: message.data },
      ];
      for (const { cls, value } of checked) {
        // As a consumer reads a message, and as the HTTP edge an instance (unknown fields refused).
        const strict = compileReader(cls)(plainToInstance(cls, value), true);
        if (strict && validateSync(plainToInstance(cls, value), { whitelist: true, forbidNonWhitelisted: true }).length > 0) {
          throw new Error(`message ${index} (${cls.name}): accepted with unknown fields refused, but class-validator refuses it`);
        }
        const read = compileReader(cls)(value);
        if (read === undefined) {
          seen.refused += 1;
          continue;
        }
        seen.accepted += 1;
        const reference = classValidator(cls, value);
        if (!reference.valid || canonical(read) !== canonical(reference.read)) {
          throw new Error(`message ${index} (${cls.name}): compiled ${JSON.stringify(read)}, class-validator ${JSON.stringify(reference)}`);
        }
      }
    }
    expect(seen.accepted).toBeGreaterThan(10_000);
    expect(seen.refused).toBeGreaterThan(10_000);
  });

  it('reads a nested object as the class class-transformer makes of it, which may depend on the value', () => {
    class Pix {
      @IsString() chave: string;
    }
    class Boleto {
      @Matches(/^\d{47}$/) linhaDigitavel: string;
    }
    class Pagamento {
      @IsIn(['pix', 'boleto']) tipo: string;
      @ValidateNested() @Type((options) => ((options?.object as { tipo?: string } | undefined)?.tipo === 'pix' ? Pix : Boleto)) dados: Pix | Boleto;
    }
    const boleto = { tipo: 'boleto', dados: { linhaDigitavel: '1'.repeat(47) } };
    expect(compileReader(Pagamento)(boleto)).toEqual(boleto);
    expect(classValidator(Pagamento, boleto).valid).toBe(true);
    const pixSemChave = { tipo: 'pix', dados: { linhaDigitavel: '1'.repeat(47) } };
    expect(compileReader(Pagamento)(pixSemChave)).toBeUndefined();
    expect(classValidator(Pagamento, pixSemChave).valid).toBe(false);
    // An instance (the HTTP edge's) is read as its own class.
    expect(compileReader(Pagamento)(plainToInstance(Pagamento, boleto), true)).toEqual(boleto);
  });

  it('leaves a class that uses what it does not handle to class-validator', () => {
    class Etiquetas {
      @IsString({ each: true }) etiquetas: string[];
    }
    expect(compileReader(Etiquetas)({ etiquetas: ['a'] })).toBeUndefined();
    const contract: TopicContract = { 'x.etiquetado': { data: Etiquetas, schemaVersions: [1] } };
    expect(parseEventMessage(envelope('x.etiquetado', { etiquetas: ['a'] }), contract).data).toEqual({ etiquetas: ['a'] });
    expect(() => parseEventMessage(envelope('x.etiquetado', { etiquetas: [1] }), contract)).toThrow('each value in etiquetas must be a string');
  });

  it('refuses an event type named like a property every object has', () => {
    expect(() => parseEventMessage(envelope('constructor', {}), LOJAS_CONTRACT)).toThrow('type: unknown event type constructor');
  });
});
