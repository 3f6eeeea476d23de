import { ORIGENS_CHAVE, type EventoDeRastreio, type OrigemChave } from './eventos';

export type { OrigemChave } from './eventos';
export type StatusVolume = 'ativo' | 'encerrado';

/** A tracking event as recorded, with its latest corrected values. */
export interface Evento {
  hash: string;
  dataHora: string;
  descricao: string;
  sigla: string;
  visivelClienteFinal: boolean;
  origem: string;
}

export interface Volume {
  chaveEnvio: string;
  origemChave: OrigemChave;
  codigoRastreio: string | null;
  chaveNFe: string | null;
  identificador: string | null;
  codigoEnvio: string | null;
  rotulo: string | null;
  status: StatusVolume;
  /** In the order they were registered. */
  eventos: Evento[];
}

/** The keys and labels a tracking event gives for its volume. */
export interface ChavesDoEvento {
  codigoRastreio: string | null;
  chaveNFe: string | null;
  identificador: string | null;
  codigoEnvio: string | null;
  rotulo: string | null;
}

export class ChaveEnvioAusente extends Error {
  constructor() {
    super('Informe codigoRastreio, chaveNFe ou identificador.');
  }
}

const ORIGENS: readonly OrigemChave[] = ORIGENS_CHAVE;

/**
 * The volume an event is about. An existing volume is the one sharing any key with the event
 * (tracking code first, then invoice key, then identifier), so its `chaveEnvio` stays stable
 * when a later event adds, say, the carrier's tracking code to a volume first known by its
 * invoice. A new volume's `chaveEnvio` is the first key present, and `origemChave` names it.
 * An event fills keys the volume lacks (never replaces one) and updates its label and code.
 */
export function volumeDoEvento(volumes: Volume[], chaves: ChavesDoEvento): Volume {
  for (const origem of ORIGENS) {
    const valor = chaves[origem];
    const existente = valor ? volumes.find((volume) => volume[origem] === valor) : undefined;
    if (existente) {
      return {
        ...existente,
        codigoRastreio: existente.codigoRastreio ?? chaves.codigoRastreio,
        chaveNFe: existente.chaveNFe ?? chaves.chaveNFe,
        identificador: existente.identificador ?? chaves.identificador,
        codigoEnvio: chaves.codigoEnvio ?? existente.codigoEnvio,
        rotulo: chaves.rotulo ?? existente.rotulo,
      };
    }
  }
  const origemChave = ORIGENS.find((origem) => chaves[origem]);
  if (!origemChave) throw new ChaveEnvioAusente();
  return {
    chaveEnvio: chaves[origemChave]!,
    origemChave,
    codigoRastreio: chaves.codigoRastreio,
    chaveNFe: chaves.chaveNFe,
    identificador: chaves.identificador,
    codigoEnvio: chaves.codigoEnvio,
    rotulo: chaves.rotulo,
    status: 'ativo',
    eventos: [],
  };
}

/** The volumes after a registration (which may create the volume or close it) or a correction. */
export function evolveVolumes(volumes: Volume[], event: EventoDeRastreio): Volume[] {
  const { data } = event;
  if (event.type === 'rastreio.evento.registrado') {
    const evento: Evento = {
      hash: data.hash,
      dataHora: data.dataHora,
      descricao: data.descricao,
      sigla: data.sigla,
      visivelClienteFinal: data.visivelClienteFinal,
      origem: event.data.origem,
    };
    const anterior = volumes.find((volume) => volume.chaveEnvio === data.chaveEnvio);
    const volume: Volume = {
      chaveEnvio: data.chaveEnvio,
      origemChave: data.origemChave,
      codigoRastreio: data.codigoRastreio ?? null,
      chaveNFe: data.chaveNFe ?? null,
      identificador: data.identificador ?? null,
      codigoEnvio: data.codigoEnvio ?? null,
      rotulo: data.rotulo ?? null,
      status: event.data.encerraVolume ? 'encerrado' : (anterior?.status ?? 'ativo'),
      eventos: [...(anterior?.eventos ?? []), evento],
    };
    return anterior ? volumes.map((existing) => (existing === anterior ? volume : existing)) : [...volumes, volume];
  }
  return volumes.map((volume) =>
    volume.chaveEnvio !== data.chaveEnvio
      ? volume
      : {
          ...volume,
          eventos: volume.eventos.map((evento) =>
            evento.hash !== data.hash
              ? evento
              : { ...evento, dataHora: data.dataHora, descricao: data.descricao, sigla: data.sigla, visivelClienteFinal: data.visivelClienteFinal },
          ),
        },
  );
}
