/** The registration flags of docs/API.md section 7, and the event each one controls. */
export const FLAGS_EVENTO = ['atendimentoCriado', 'atendimentoMensagem', 'atendimentoEncerrado', 'aplicativo'] as const;
export type FlagEvento = (typeof FLAGS_EVENTO)[number];
export type FlagsEvento = Record<FlagEvento, boolean>;

export const FLAG_DO_EVENTO: Readonly<Record<string, FlagEvento>> = {
  'atendimento.criado': 'atendimentoCriado',
  'atendimento.mensagem': 'atendimentoMensagem',
  'atendimento.encerrado': 'atendimentoEncerrado',
  'aplicativo.removido': 'aplicativo',
};

/** Every notification type a store can receive. */
export const EVENTOS_NOTIFICADOS = Object.keys(FLAG_DO_EVENTO);

/** A flag left out of the registration is enabled (docs/API.md section 7). */
export function flagsComPadrao(dadas: Partial<FlagsEvento>): FlagsEvento {
  return Object.fromEntries(FLAGS_EVENTO.map((flag) => [flag, dadas[flag] ?? true])) as FlagsEvento;
}

/** The JSON body of every push: `{evento, data}` (docs/API.md section 7). */
export function corpoNotificacao(evento: string, data: object): string {
  return JSON.stringify({ evento, data });
}
