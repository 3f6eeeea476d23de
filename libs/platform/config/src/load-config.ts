import { z } from 'zod';

export class ConfigError extends Error {}

/**
 * Reads a service's settings from the environment and validates them at start-up.
 * A missing or bad value throws one error naming every offending variable.
 */
export function loadConfig<S extends z.ZodObject>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => {
    // The variable, not the path inside its parsed value (KAFKA_BROKERS, not KAFKA_BROKERS.0).
    const name = String(issue.path[0] ?? '(environment)');
    // A rule between settings says why a missing one is needed (KAFKA_SASL_PASSWORD: required when …).
    if (env[name] === undefined) return `  ${name} (missing): ${issue.code === 'custom' ? issue.message : 'required'}`;
    return `  ${name} (invalid): ${issue.message}`;
  });
  throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
}

/** Entry points call this: a configuration error stops the process with the message, not a stack. */
export function loadConfigOrExit<S extends z.ZodObject>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  try {
    return loadConfig(schema, env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(78); // EX_CONFIG
  }
}
