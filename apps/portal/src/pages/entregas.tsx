import { useEffect, useRef, useState } from 'preact/hooks';
import type { paths, Schema } from '@trilha/api-client';
import { api, ApiError, ok } from '../api';
import { Erro, Sucesso } from '../componentes';
import { usePortal, useTarefa } from '../contexto';
import { catalogo, type TipoEvento } from '../documento';
import { dataHora, instanteDe, localDe } from '../formato';
import { fragmentoDe } from '../rotas';

/** A delivery's status, as the API's list of them declares it. */
export type StatusEntrega = Schema<'EntregaResponse'>['status'];
/** The log's query, as the API declares it. */
type Consulta = NonNullable<paths['/webhook/entregas']['get']['parameters']['query']>;

type Filtros = { evento: string; status: string; desde: string; ate: string };
const SEM_FILTROS: Filtros = { evento: '', status: '', desde: '', ate: '' };
/** How often the list asks for newer deliveries while the page is visible. */
const INTERVALO_AO_VIVO_MS = 5_000;
const POR_PAGINA = 50;

const pagina = async (filtros: Filtros, cursor?: string) =>
  ok(
    api.GET('/webhook/entregas', {
      params: {
        query: {
          porPagina: POR_PAGINA,
          evento: (filtros.evento || undefined) as Consulta['evento'],
          status: (filtros.status || undefined) as Consulta['status'],
          desde: instanteDe(filtros.desde),
          ate: instanteDe(filtros.ate),
          cursor,
        },
      },
    }),
  );
type Pagina = Awaited<ReturnType<typeof pagina>>;
type Entrega = Pagina['entregas'][number];

/** How a delivery's status reads (every status of the API has one: the type checks it). */
export const STATUS: Record<StatusEntrega, string> = { pendente: 'Pendente', entregue: 'Entregue', falhou: 'Falhou' };

/** Newest first; a delivery seen again replaces the copy shown (its status and attempts change). */
function juntar(novas: Entrega[], vistas: Entrega[]): Entrega[] {
  const porId = new Map(vistas.map((entrega) => [entrega.idEntrega, entrega]));
  for (const entrega of novas) porId.set(entrega.idEntrega, entrega);
  return [...porId.values()].sort((a, b) => b.ocorridoEm.localeCompare(a.ocorridoEm));
}

/** The delivery log: filtered, newest first, older pages by cursor, newer deliveries as they happen. */
export function PaginaEntregas() {
  const { gerenciar, aoPerderSessao } = usePortal();
  const [tipos, setTipos] = useState<TipoEvento[]>([]);
  const [filtros, setFiltros] = useState<Filtros>(SEM_FILTROS);
  const [aplicados, setAplicados] = useState<Filtros>(SEM_FILTROS);
  const [entregas, setEntregas] = useState<Entrega[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const { erro, ocupado, executar } = useTarefa();
  const ao = useRef({ aplicados });
  ao.current.aplicados = aplicados;

  useEffect(() => void catalogo().then(({ tipos }) => setTipos(tipos), () => undefined), []);

  useEffect(() => {
    setEntregas(null);
    void executar(async () => {
      const primeira = await pagina(aplicados);
      setEntregas(primeira.entregas);
      setCursor(primeira.proximoCursor);
    });
  }, [aplicados]);

  // Live: the first page again every few seconds while the tab is visible, merged into what is shown.
  useEffect(() => {
    const intervalo = setInterval(() => {
      if (document.visibilityState !== 'visible') return;
      const filtrosDaVez = ao.current.aplicados;
      pagina(filtrosDaVez).then(
        (primeira) => {
          if (filtrosDaVez === ao.current.aplicados) setEntregas((vistas) => (vistas ? juntar(primeira.entregas, vistas) : vistas));
        },
        // Quietly: the next round tries again; only an ended session ends the portal.
        (falha: unknown) => falha instanceof ApiError && falha.status === 401 && aoPerderSessao(falha),
      );
    }, INTERVALO_AO_VIVO_MS);
    return () => clearInterval(intervalo);
  }, []);

  const maisAntigas = () =>
    executar(async () => {
      if (!cursor) return;
      const proxima = await pagina(aplicados, cursor);
      setEntregas((vistas) => juntar(proxima.entregas, vistas ?? []));
      setCursor(proxima.proximoCursor);
    });

  const campo = (nome: keyof Filtros) => ({
    id: `filtro-${nome}`,
    value: filtros[nome],
    onInput: (e: { currentTarget: { value: string } }) => setFiltros({ ...filtros, [nome]: e.currentTarget.value }),
  });

  return (
    <>
      <form
        class="cartao filtros"
        aria-label="Filtros das entregas"
        onSubmit={(e) => {
          e.preventDefault();
          setAplicados({ ...filtros });
        }}
      >
        <div>
          <label for="filtro-evento">Evento</label>
          <select {...campo('evento')}>
            <option value="">Todos</option>
            {tipos.map((tipo) => (
              <option key={tipo.evento} value={tipo.evento}>
                {tipo.evento}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label for="filtro-status">Status</label>
          <select {...campo('status')}>
            <option value="">Todos</option>
            {Object.entries(STATUS).map(([valor, rotulo]) => (
              <option key={valor} value={valor}>
                {rotulo}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label for="filtro-desde">Ocorridas desde</label>
          <input type="datetime-local" {...campo('desde')} />
        </div>
        <div>
          <label for="filtro-ate">Até</label>
          <input type="datetime-local" {...campo('ate')} />
        </div>
        <div class="acoes">
          <button type="submit">Filtrar</button>
        </div>
      </form>
      <Erro erro={erro} />
      {entregas && (
        <section aria-labelledby="lista-entregas">
          <h2 id="lista-entregas">Mais recentes primeiro</h2>
          <p class="secundario" aria-live="polite">
            {entregas.length === 0 ? 'Nenhuma entrega com estes filtros.' : `${entregas.length} entregas mostradas; a lista se atualiza sozinha.`}
          </p>
          {entregas.length > 0 && <TabelaEntregas entregas={entregas} />}
          {cursor && (
            <button type="button" class="secundario" disabled={ocupado} onClick={() => void maisAntigas()}>
              Mais antigas
            </button>
          )}
        </section>
      )}
      {gerenciar && <RecuperarFalhas />}
    </>
  );
}

function TabelaEntregas({ entregas }: { entregas: Entrega[] }) {
  return (
    <div class="rolagem">
      <table>
        <thead>
          <tr>
            <th scope="col">Ocorrido em</th>
            <th scope="col">Evento</th>
            <th scope="col">Status</th>
            <th scope="col">Tentativas</th>
            <th scope="col">Próxima tentativa</th>
          </tr>
        </thead>
        <tbody>
          {entregas.map((entrega) => {
            const ultima = entrega.tentativas.at(-1);
            return (
              <tr key={entrega.idEntrega}>
                <td>
                  <a href={fragmentoDe({ pagina: 'entregas', idEntrega: entrega.idEntrega })}>{dataHora(entrega.ocorridoEm)}</a>
                </td>
                <td>
                  <code>{entrega.evento}</code>
                </td>
                <td>
                  <span class={`selo ${entrega.status}`}>{STATUS[entrega.status]}</span>
                </td>
                <td>
                  {entrega.tentativas.length}
                  {ultima && ` (última: ${ultima.statusHttp ?? ultima.erro ?? 'sem resposta'})`}
                </td>
                <td>{dataHora(entrega.proximaTentativa)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** Resend every delivery that failed since a moment (POST /webhook/entregas/recuperar). */
function RecuperarFalhas() {
  const [desde, setDesde] = useState(() => localDe(new Date(Date.now() - 86_400_000)));
  const [quantidade, setQuantidade] = useState<number | null>(null);
  const { erro, ocupado, executar } = useTarefa();
  return (
    <form
      class="cartao"
      aria-labelledby="recuperar"
      onSubmit={(e) => {
        e.preventDefault();
        setQuantidade(null);
        void executar(async () => setQuantidade((await ok(api.POST('/webhook/entregas/recuperar', { body: { desde: instanteDe(desde)! } }))).quantidade));
      }}
    >
      <h2 id="recuperar">Recuperar falhas</h2>
      <p>Reenvia, uma de cada vez e na ordem em que ocorreram, as entregas que falharam desde o instante escolhido (até 30 dias atrás).</p>
      <label for="recuperar-desde">Falhas desde</label>
      <input id="recuperar-desde" type="datetime-local" required value={desde} onInput={(e) => setDesde(e.currentTarget.value)} />
      <div class="acoes">
        <button type="submit" disabled={ocupado}>
          Reenviar falhas
        </button>
      </div>
      <Erro erro={erro} />
      {quantidade !== null && <Sucesso>{quantidade === 1 ? '1 entrega será reenviada.' : `${quantidade} entregas serão reenviadas.`}</Sucesso>}
    </form>
  );
}
