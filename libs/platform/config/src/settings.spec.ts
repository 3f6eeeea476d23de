import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from './load-config';
import { kafkaConnection, platformSettings, serviceConfigSchema } from './settings';

const schema = serviceConfigSchema(platformSettings);
const base = { DATABASE_URL: 'postgresql://u:p@db:5432/trilha', KAFKA_BROKERS: 'kafka-0:9093,kafka-1:9093', OPS_PORT: '9090' };
const connection = (env: Record<string, string>) => kafkaConnection(loadConfig(schema, { ...base, ...env }));

let dir: string;
let caFile: string;
const PEM = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'trilha-settings-'));
  caFile = join(dir, 'ca.crt');
  writeFileSync(caFile, PEM);
  writeFileSync(join(dir, 'not-pem.txt'), 'hello');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('Kafka settings', () => {
  it('connect in plain text by default', () => {
    expect(connection({})).toEqual({ brokers: ['kafka-0:9093', 'kafka-1:9093'] });
  });

  it('connect over TLS with the system CAs, or with the CAs of KAFKA_SSL_CA_FILE', () => {
    expect(connection({ KAFKA_SSL: 'true' })).toEqual({ brokers: ['kafka-0:9093', 'kafka-1:9093'], tls: {} });
    expect(connection({ KAFKA_SSL: 'true', KAFKA_SSL_CA_FILE: caFile }).tls).toEqual({ ca: PEM });
  });

  it.each(['plain', 'scram-sha-256', 'scram-sha-512'])('authenticate with SASL %s', (mechanism) => {
    expect(connection({ KAFKA_SSL: 'true', KAFKA_SASL_MECHANISM: mechanism, KAFKA_SASL_USERNAME: 'trilha', KAFKA_SASL_PASSWORD: 's3cret' }).sasl)
      .toEqual({ mechanism, username: 'trilha', password: 's3cret' });
  });

  it('require the credentials of a SASL mechanism, naming each', () => {
    expect(() => connection({ KAFKA_SASL_MECHANISM: 'scram-sha-512' })).toThrow(
      /KAFKA_SASL_USERNAME \(missing\): required when KAFKA_SASL_MECHANISM is set\n\s+KAFKA_SASL_PASSWORD \(missing\): required when KAFKA_SASL_MECHANISM is set/,
    );
  });

  it('refuse credentials without a mechanism, and an unknown mechanism', () => {
    expect(() => connection({ KAFKA_SASL_USERNAME: 'trilha', KAFKA_SASL_PASSWORD: 's3cret' })).toThrow(
      /KAFKA_SASL_USERNAME \(invalid\): set without KAFKA_SASL_MECHANISM \(plain, scram-sha-256, scram-sha-512\)/,
    );
    expect(() => connection({ KAFKA_SASL_MECHANISM: 'gssapi', KAFKA_SASL_USERNAME: 'trilha', KAFKA_SASL_PASSWORD: 's3cret' })).toThrow(/KAFKA_SASL_MECHANISM \(invalid\)/);
  });

  it('refuse a CA file without TLS, a missing one and one without certificates', () => {
    expect(() => connection({ KAFKA_SSL_CA_FILE: caFile })).toThrow(/KAFKA_SSL_CA_FILE \(invalid\): set without KAFKA_SSL=true/);
    expect(() => connection({ KAFKA_SSL: 'true', KAFKA_SSL_CA_FILE: join(dir, 'missing.crt') })).toThrow(/KAFKA_SSL_CA_FILE \(invalid\): cannot read .*missing\.crt \(ENOENT\)/);
    expect(() => connection({ KAFKA_SSL: 'true', KAFKA_SSL_CA_FILE: join(dir, 'not-pem.txt') })).toThrow(/KAFKA_SSL_CA_FILE \(invalid\): .*not-pem\.txt holds no PEM certificate/);
  });

  it('are checked together with every other setting, so one start names every problem', () => {
    expect(() => loadConfig(schema, { KAFKA_BROKERS: 'kafka:9093', KAFKA_SASL_MECHANISM: 'plain', OPS_PORT: '9090' })).toThrow(
      /DATABASE_URL \(missing\): required[\s\S]*KAFKA_SASL_USERNAME \(missing\)[\s\S]*KAFKA_SASL_PASSWORD \(missing\)/,
    );
  });
});
