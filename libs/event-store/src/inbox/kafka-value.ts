/**
 * The value of a consumed Kafka message as JSON. Nest's Kafka transport has usually parsed it
 * already; a raw Buffer or string is parsed here.
 */
export function kafkaMessageJson(value: unknown): unknown {
  if (Buffer.isBuffer(value) || typeof value === 'string') return JSON.parse(String(value));
  return value;
}
