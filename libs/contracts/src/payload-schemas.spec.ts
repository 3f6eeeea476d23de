import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TOPIC_CONTRACTS } from '.';
import { breakingChanges, payloadSchemas, type JsonSchema } from './payload-schemas';

/**
 * Strict writers: each topic version's payload schemas as published are committed beside its
 * classes (`<topic>/payload-schemas.json`), and the classes may only add to them (optional
 * fields, event types). Adding an optional field passes and changes no file. To take such an
 * addition into the snapshot, deliberately, run
 *
 *   CONTRACTS_SNAPSHOT=update npx jest libs/contracts/src/payload-schemas.spec.ts --selectProjects unit
 *
 * and commit the JSON files. A removal, rename, retype or new requirement needs a new topic
 * version (`<name>.v2`), never an update of the snapshot.
 */
const snapshotFile = (topic: string) => join(__dirname, topic, 'payload-schemas.json');

const updating = process.env.CONTRACTS_SNAPSHOT === 'update';

describe.each(Object.entries(TOPIC_CONTRACTS))('the payload schemas of %s', (topic, contract) => {
  const current = payloadSchemas(contract);

  if (updating) {
    it('are written to the snapshot, as asked by CONTRACTS_SNAPSHOT=update', () => {
      const published: Record<string, JsonSchema> = existsSync(snapshotFile(topic)) ? JSON.parse(readFileSync(snapshotFile(topic), 'utf8')) : {};
      expect(breakingChanges(published, current)).toEqual([]);
      writeFileSync(snapshotFile(topic), `${JSON.stringify(current, null, 2)}\n`);
    });
    return;
  }

  it('only add optional fields and event types to the committed snapshot', () => {
    expect(existsSync(snapshotFile(topic))).toBe(true);
    const published: Record<string, JsonSchema> = JSON.parse(readFileSync(snapshotFile(topic), 'utf8'));
    expect(breakingChanges(published, current)).toEqual([]);
  });
});

describe('breakingChanges', () => {
  const published: Record<string, JsonSchema> = {
    'x.criado': {
      type: 'object',
      properties: {
        idLoja: { type: 'integer', minimum: 1 },
        nome: { type: 'string', maxLength: 150 },
        apelido: { type: 'string' },
        cliente: { type: 'object', properties: { email: { type: 'string' } }, required: ['email'] },
      },
      required: ['idLoja', 'nome', 'cliente'],
    },
  };
  const changed = (change: (schema: JsonSchema) => void): Record<string, JsonSchema> => {
    const schema = structuredClone(published['x.criado']);
    change(schema);
    return { 'x.criado': schema };
  };

  it('passes the same schemas, an added optional field and an added event type', () => {
    expect(breakingChanges(published, published)).toEqual([]);
    const withOptional = changed((schema) => (schema.properties!.novo = { type: 'string' }));
    expect(breakingChanges(published, { ...withOptional, 'x.novo': { type: 'object', properties: {} } })).toEqual([]);
  });

  it('names a removed or renamed field, nested ones included, and a removed event type', () => {
    const renamed = changed((schema) => {
      schema.properties!.nomeLoja = schema.properties!.nome;
      delete schema.properties!.nome;
      delete schema.properties!.cliente.properties!.email;
    });
    expect(breakingChanges(published, renamed)).toEqual(['x.criado data.nome: removed or renamed', 'x.criado data.cliente.email: removed or renamed']);
    expect(breakingChanges(published, {})).toEqual(['x.criado: event type removed or renamed']);
  });

  it('names a retyped field or one whose constraints changed', () => {
    const retyped = changed((schema) => {
      schema.properties!.idLoja = { type: 'string' };
      schema.properties!.nome.maxLength = 200;
    });
    expect(breakingChanges(published, retyped)).toEqual([
      'x.criado data.idLoja: retyped, was {"type":"integer","minimum":1}, is {"type":"string"}',
      'x.criado data.nome: retyped, was {"type":"string","maxLength":150}, is {"type":"string","maxLength":200}',
    ]);
  });

  it('names a field made required or optional, and a required field added', () => {
    const required = changed((schema) => {
      schema.required = ['idLoja', 'cliente', 'apelido', 'novo'];
      schema.properties!.novo = { type: 'string' };
    });
    expect(breakingChanges(published, required)).toEqual([
      'x.criado data.nome: made optional',
      'x.criado data.apelido: made required',
      'x.criado data.novo: added as required',
    ]);
  });
});
