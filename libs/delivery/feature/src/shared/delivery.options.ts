import { Resolver } from 'node:dns/promises';
import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import { AGENDA_PADRAO, Chaveiro, lerAgenda, lerChaves, lerDuracao, lerRedes, type Rede } from '@trilha/delivery-domain';

/** Turns a parser's error into a configuration issue naming the variable. */
function parsed<T>(parse: (text: string) => T) {
  return (text: string, context: z.RefinementCtx): T => {
    try {
      return parse(text);
    } catch (error) {
      context.addIssue({ code: 'custom', message: (error as Error).message });
      return z.NEVER;
    }
  };
}

/** The delivery service's own settings (README, "Configuration of the services"). */
export const deliverySettings = {
  /** Networks a webhook may point to although they are not public (local runs and tests), e.g. `127.0.0.0/8`. */
  WEBHOOK_ALLOWED_CIDRS: z.string().default('').transform(parsed(lerRedes)),
  /** A PEM file of CAs trusted for webhook TLS besides the default roots (a local receiver's self-signed certificate). */
  WEBHOOK_CA_FILE: z
    .string()
    .min(1)
    .optional()
    .refine((file) => file === undefined || existsSync(file), 'file not found')
    .transform((file) => (file === undefined ? undefined : readFileSync(file, 'utf8'))),
  /** DNS servers webhook hosts are resolved with, `ip` or `ip:port`, comma-separated; empty: the system's (`/etc/resolv.conf`). */
  WEBHOOK_DNS_SERVERS: z.string().default('').transform(parsed(lerServidoresDns)),
  /** Intervals before each further attempt, at most 5, e.g. `10s,1m,5m,30m,2h` (the default). */
  WEBHOOK_RETRY_SCHEDULE: z.string().default(AGENDA_PADRAO).transform(parsed(lerAgenda)),
  /** A webhook whose every attempt failed for this long is deactivated (default 5 days). */
  WEBHOOK_DISABLE_AFTER: z.string().default('5d').transform(parsed(lerDuracao)),
  /** After a secret rotation, the previous secret still signs for this long (default 24 h). */
  WEBHOOK_SECRET_OVERLAP: z.string().default('24h').transform(parsed(lerDuracao)),
  /** Keys the webhook signing secrets are encrypted with at rest, `id:base64(32 bytes)`, comma-separated; the first encrypts, every one decrypts. */
  WEBHOOK_SECRET_KEYS: z.string().transform(parsed((texto) => new Chaveiro(lerChaves(texto)))),
};

/** `1.1.1.1, [2606:4700::1111]:53` → the list; c-ares' own parser (`setServers`) refuses what it cannot use. */
function lerServidoresDns(texto: string): string[] {
  const servidores = texto.split(',').map((parte) => parte.trim()).filter(Boolean);
  new Resolver().setServers(servidores);
  return servidores;
}

export interface DeliveryOptions {
  redesPermitidas: Rede[];
  /** DNS servers for webhook hosts; empty: the system's. */
  servidoresDns: string[];
  /** Extra CA certificates (PEM) for webhook TLS. */
  caExtra?: string;
  agendaMs: number[];
  desativarAposMs: number;
  sobreposicaoSegredoMs: number;
  /** Encrypts the signing secrets the database holds, and decrypts them to sign. */
  chaveiro: Chaveiro;
  /** For the dispatcher's LISTEN connection. */
  databaseUrl: string;
}

export const DELIVERY_OPTIONS = Symbol('DELIVERY_OPTIONS');

type DeliverySettings = { [K in keyof typeof deliverySettings]: z.infer<(typeof deliverySettings)[K]> };

export function deliveryOptions(config: DeliverySettings, databaseUrl: string): DeliveryOptions {
  return {
    redesPermitidas: config.WEBHOOK_ALLOWED_CIDRS,
    servidoresDns: config.WEBHOOK_DNS_SERVERS,
    caExtra: config.WEBHOOK_CA_FILE,
    agendaMs: config.WEBHOOK_RETRY_SCHEDULE,
    desativarAposMs: config.WEBHOOK_DISABLE_AFTER,
    sobreposicaoSegredoMs: config.WEBHOOK_SECRET_OVERLAP,
    chaveiro: config.WEBHOOK_SECRET_KEYS,
    databaseUrl,
  };
}
