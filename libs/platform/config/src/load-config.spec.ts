import { z } from 'zod';
import { loadConfig } from './load-config';
import { brokerList, booleanFlag, port } from './settings';

const schema = z.object({ PORT: port, KAFKA_BROKERS: brokerList, FLAG: booleanFlag.default(false) });

describe('loadConfig', () => {
  it('returns typed, transformed settings', () => {
    expect(loadConfig(schema, { PORT: '8080', KAFKA_BROKERS: 'a:1, b:2', FLAG: 'true' })).toEqual({
      PORT: 8080,
      KAFKA_BROKERS: ['a:1', 'b:2'],
      FLAG: true,
    });
  });

  it('names every missing or invalid variable in one error', () => {
    expect(() => loadConfig(schema, { PORT: 'eighty' })).toThrow(
      /PORT \(invalid\)[\s\S]*KAFKA_BROKERS \(missing\)/,
    );
  });

  it('rejects a broker without a port', () => {
    expect(() => loadConfig(schema, { PORT: '1', KAFKA_BROKERS: 'localhost' })).toThrow(/KAFKA_BROKERS \(invalid\): each broker must be host:port/);
  });
});
