import { STATUS_GONE } from './entrega';

/**
 * An endpoint's health (GET /webhook `saude`), kept up to date attempt by attempt so that
 * reading it never scans the attempt log, and the decision to deactivate it.
 */
export interface SaudeWebhook {
  /** The last attempt answered with 200 (epoch ms). */
  ultimaEntrega: number | null;
  /** The last failed attempt (epoch ms) and what went wrong. */
  ultimaFalha: number | null;
  ultimoErro: string | null;
  /** Failed attempts since the last 200. */
  falhasSeguidas: number;
  /** The first of those failed attempts (epoch ms): every attempt since failed. */
  falhandoDesde: number | null;
}

export const SAUDE_INICIAL: SaudeWebhook = { ultimaEntrega: null, ultimaFalha: null, ultimoErro: null, falhasSeguidas: 0, falhandoDesde: null };

/** One attempt as health counts it. */
export interface TentativaFeita {
  ok: boolean;
  /** When it was made (epoch ms). */
  em: number;
  statusHttp: number | null;
  erro: string | null;
}

export function evoluirSaude(saude: SaudeWebhook, tentativa: TentativaFeita): SaudeWebhook {
  if (tentativa.ok) return { ...saude, ultimaEntrega: Math.max(tentativa.em, saude.ultimaEntrega ?? 0), falhasSeguidas: 0, falhandoDesde: null };
  return {
    ...saude,
    ultimaFalha: Math.max(tentativa.em, saude.ultimaFalha ?? 0),
    ultimoErro: tentativa.erro,
    falhasSeguidas: saude.falhasSeguidas + 1,
    falhandoDesde: Math.min(tentativa.em, saude.falhandoDesde ?? tentativa.em),
  };
}

/**
 * Whether the webhook is deactivated after these attempts, and why (the reason the store reads):
 * a `410 Gone`, or every attempt failed for `desativarAposMs` (WEBHOOK_DISABLE_AFTER).
 * `saude` is the health after the attempts.
 */
export function motivoDesativacao(saude: SaudeWebhook, tentativas: TentativaFeita[], desativarAposMs: number, agora: number): string | null {
  const gone = tentativas.find((tentativa) => tentativa.statusHttp === STATUS_GONE);
  if (gone) return 'O receptor respondeu 410 Gone: a URL não recebe mais webhooks.';
  if (saude.falhandoDesde !== null && agora - saude.falhandoDesde >= desativarAposMs) {
    return `Todas as tentativas falharam desde ${new Date(saude.falhandoDesde).toISOString()} (${saude.falhasSeguidas} seguidas).`;
  }
  return null;
}

/** Share of attempts answered with 200; null without attempts. */
export function taxaSucesso(sucessos: number, falhas: number): number | null {
  const total = sucessos + falhas;
  return total === 0 ? null : Math.round((sucessos / total) * 10_000) / 10_000;
}
