import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError, ok } from './api';
import { Erro } from './componentes';
import { dataHora } from './formato';
import { PaginaCatalogo } from './pages/catalogo';
import { PaginaEntrega } from './pages/entrega';
import { PaginaEntregas } from './pages/entregas';
import { PaginaFila } from './pages/fila';
import { PaginaWebhook } from './pages/webhook';
import { Portal as ContextoPortal } from './contexto';
import { fragmentoDe, PAGINAS, rotaDe, type Rota } from './rotas';

async function carregarSessao() {
  return ok(api.GET('/portal/sessao'));
}

export type Sessao = Awaited<ReturnType<typeof carregarSessao>>;

/** Why there is no session to show: the page says what happened and what to do. */
type SemSessao = { titulo: string; detalhe: string };

const PECA_NOVO_LINK = 'Peça um novo link ao sistema da sua loja (ele o obtém em POST /v1/portal/links) e abra-o em até 15 minutos.';

function semSessaoDe(erro: unknown, abrindoLink: boolean): SemSessao {
  if (!(erro instanceof ApiError) || erro.status === 0 || erro.status >= 500 || erro.status === 429) {
    return { titulo: 'Não foi possível abrir o portal', detalhe: erro instanceof ApiError ? erro.message : 'Tente de novo em instantes.' };
  }
  if (abrindoLink && erro.status === 410) return { titulo: 'Este link não vale mais', detalhe: erro.message };
  if (abrindoLink) return { titulo: 'Link inválido', detalhe: 'Este link não é um link do portal válido: confira se ele foi copiado inteiro.' };
  return { titulo: 'Sua sessão no portal terminou', detalhe: erro.message };
}

/**
 * The portal: a link's secret in the fragment starts a session (POST /v1/portal/sessoes, which
 * sets the session cookie) and is then removed from the address and the history; the session
 * (GET /v1/portal/sessao) says whose store it is and what it may do.
 */
export function App() {
  const [sessao, setSessao] = useState<Sessao | null>(null);
  const [semSessao, setSemSessao] = useState<SemSessao | null>(null);
  const [rota, setRota] = useState<Rota>(() => rotaDe(location.hash) ?? { pagina: 'webhook' });

  useEffect(() => {
    const segredo = location.hash.slice(1);
    const abrindoLink = segredo !== '' && rotaDe(segredo) === null;
    (async () => {
      if (abrindoLink) {
        // The secret leaves the address bar and the history before anything else happens.
        history.replaceState(null, '', `${location.pathname}${location.search}#webhook`);
        await ok(api.POST('/portal/sessoes', { body: { link: segredo } }));
      }
      setSessao(await carregarSessao());
    })().catch((erro: unknown) => setSemSessao(semSessaoDe(erro, abrindoLink)));
  }, []);

  useEffect(() => {
    const mudou = () => setRota(rotaDe(location.hash) ?? { pagina: 'webhook' });
    addEventListener('hashchange', mudou);
    return () => removeEventListener('hashchange', mudou);
  }, []);

  if (semSessao) return <PaginaSemSessao {...semSessao} />;
  if (!sessao) return <p class="carregando" role="status">Abrindo o portal…</p>;
  return <PortalDaLoja sessao={sessao} rota={rota} aoPerderSessao={(erro) => setSemSessao(semSessaoDe(erro, false))} />;
}

function PaginaSemSessao({ titulo, detalhe }: SemSessao) {
  const titulo1 = useRef<HTMLHeadingElement>(null);
  useEffect(() => titulo1.current?.focus(), []);
  return (
    <main class="sem-sessao">
      <h1 tabIndex={-1} ref={titulo1}>
        {titulo}
      </h1>
      <p>{detalhe}</p>
      <p>{PECA_NOVO_LINK}</p>
    </main>
  );
}

function PortalDaLoja({ sessao, rota, aoPerderSessao }: { sessao: Sessao; rota: Rota; aoPerderSessao: (erro: ApiError) => void }) {
  const gerenciar = sessao.capacidade === 'gerenciar';
  const titulo = useRef<HTMLHeadingElement>(null);
  const pagina = PAGINAS.find((p) => p.id === rota.pagina)!;

  useEffect(() => {
    document.title = `${rota.idEntrega ? 'Entrega' : pagina.titulo} · Portal da loja`;
    titulo.current?.focus();
  }, [rota.pagina, rota.idEntrega]);

  const [erro, setErro] = useState<unknown>(null);
  const [ocupado, setOcupado] = useState(false);
  const sair = async () => {
    setOcupado(true);
    try {
      await ok(api.DELETE('/portal/sessao'));
      aoPerderSessao(new ApiError(401, { detail: 'Você saiu do portal. Para voltar ao portal, use um novo link.' }));
    } catch (falha) {
      if (falha instanceof ApiError && falha.status === 401) aoPerderSessao(falha);
      else setErro(falha);
      setOcupado(false);
    }
  };

  return (
    <ContextoPortal.Provider value={{ gerenciar, aoPerderSessao }}>
      <a class="pular" href="#conteudo" onClick={(e) => (e.preventDefault(), titulo.current?.focus())}>
        Pular para o conteúdo
      </a>
      <header class="topo">
        <div class="loja">
          <p class="marca">Trilha · Portal da loja</p>
          <p class="nome-loja">{sessao.nomeLoja}</p>
          <p class="capacidade">
            {gerenciar ? 'Pode consultar e alterar' : 'Somente consulta'} · sessão até {dataHora(sessao.expiraEm)}
          </p>
        </div>
        <button type="button" class="secundario" disabled={ocupado} onClick={() => void sair()}>
          Sair
        </button>
        <nav aria-label="Páginas do portal">
          <ul>
            {PAGINAS.map((p) => (
              <li key={p.id}>
                <a href={fragmentoDe({ pagina: p.id })} aria-current={p.id === rota.pagina ? 'page' : undefined}>
                  {p.titulo}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      </header>
      <main id="conteudo">
        <Erro erro={erro} />
        <h1 tabIndex={-1} ref={titulo}>
          {rota.idEntrega ? 'Entrega' : pagina.titulo}
        </h1>
        {rota.idEntrega ? (
          <PaginaEntrega idEntrega={rota.idEntrega} />
        ) : rota.pagina === 'webhook' ? (
          <PaginaWebhook />
        ) : rota.pagina === 'entregas' ? (
          <PaginaEntregas />
        ) : rota.pagina === 'fila' ? (
          <PaginaFila />
        ) : (
          <PaginaCatalogo />
        )}
      </main>
    </ContextoPortal.Provider>
  );
}
