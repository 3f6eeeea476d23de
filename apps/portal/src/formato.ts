const DATA_HORA = new Intl.DateTimeFormat('pt-BR', { dateStyle: 'short', timeStyle: 'medium' });

/** An instant of the API (ISO 8601) as a person in Brazil reads it; a dash for none. */
export function dataHora(valor: string | null | undefined): string {
  return valor ? DATA_HORA.format(new Date(valor)) : '—';
}

/** The value of an `<input type="datetime-local">` (local time) as the API's ISO 8601 instant. */
export function instanteDe(local: string): string | undefined {
  return local ? new Date(local).toISOString() : undefined;
}

/** An instant as an `<input type="datetime-local">` value, in local time. */
export function localDe(instante: Date): string {
  const local = new Date(instante.getTime() - instante.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

/** A body as sent: indented when it is JSON, as it came otherwise. */
export function corpoLegivel(texto: string): string {
  try {
    return JSON.stringify(JSON.parse(texto), null, 2);
  } catch {
    return texto;
  }
}
