import { NOTIFICATIONS, type FlagsEvento } from '@trilha/contracts';

export { EVENTOS_NOTIFICACAO, FLAGS_EVENTO, type EventoNotificacao, type FlagEvento, type FlagsEvento } from '@trilha/contracts';

/** A flag left out of the registration, or stored before it existed, has its default (docs/API.md section 7). */
export const FLAGS_PADRAO: Readonly<FlagsEvento> = Object.fromEntries(NOTIFICATIONS.map((n) => [n.flag, n.padrao])) as FlagsEvento;

/** The registration's flags: those given, and the default of each one left out. */
export function flagsComPadrao(dadas: Partial<FlagsEvento>): FlagsEvento {
  return Object.fromEntries(NOTIFICATIONS.map(({ flag }) => [flag, dadas[flag] ?? FLAGS_PADRAO[flag]])) as FlagsEvento;
}

/** The JSON body of every push: `{evento, data}` (docs/API.md section 7). */
export function corpoNotificacao(evento: string, data: object): string {
  return JSON.stringify({ evento, data });
}
