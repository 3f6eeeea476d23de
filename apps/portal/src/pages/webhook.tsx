import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, ok } from '../api';
import { Campo, Erro, SegredoUmaVez, Sucesso, Texto } from '../componentes';
import { usePortal, useTarefa } from '../contexto';
import { catalogo, type TipoEvento } from '../documento';
import { dataHora } from '../formato';

const carregarWebhook = async () => ok(api.GET('/webhook'));
type Webhook = Awaited<ReturnType<typeof carregarWebhook>>;
type Flags = Webhook['eventos'];
const testar = async () => ok(api.POST('/webhook/testar'));
type RespostaTeste = Awaited<ReturnType<typeof testar>>;
type Segredo = { segredo: string; antigoValidoAte?: string };

/** The store's webhook: its URL, which events it receives, its health; activate, edit, rotate the secret, test. */
export function PaginaWebhook() {
  const { gerenciar } = usePortal();
  const [webhook, setWebhook] = useState<Webhook | null | undefined>(undefined);
  const [tipos, setTipos] = useState<TipoEvento[]>([]);
  const [editando, setEditando] = useState(false);
  const [segredo, setSegredo] = useState<Segredo | null>(null);
  const [teste, setTeste] = useState<RespostaTeste | null>(null);
  const [aviso, setAviso] = useState<string | null>(null);
  const { erro, ocupado, executar } = useTarefa();

  const recarregar = async () => {
    try {
      setWebhook(await carregarWebhook());
    } catch (falha) {
      if (falha instanceof ApiError && falha.status === 404) setWebhook(null);
      else throw falha;
    }
  };
  useEffect(
    () =>
      void executar(async () => {
        setTipos((await catalogo()).tipos);
        await recarregar();
      }),
    [],
  );

  const acao = (tarefa: () => Promise<void>) => {
    setSegredo(null);
    setTeste(null);
    setAviso(null);
    return executar(tarefa);
  };
  const ativar = () =>
    acao(async () => {
      setWebhook(await ok(api.POST('/webhook/ativar')));
      setAviso('Webhook ativado: os próximos eventos vão para a URL.');
    });
  const rotacionar = () =>
    acao(async () => {
      const novo = await ok(api.POST('/webhook/segredo/rotacionar'));
      setSegredo({ segredo: novo.segredo, antigoValidoAte: novo.antigoValidoAte });
    });
  const enviarTeste = () => acao(async () => setTeste(await testar()));
  const cadastrar = (url: string, eventos: Flags) =>
    acao(async () => {
      const cadastrado = await ok(api.POST('/webhook/novo', { body: { url, ...eventos } }));
      setSegredo({ segredo: cadastrado.segredo });
      setEditando(false);
      await recarregar();
    });

  if (webhook === undefined) return <Erro erro={erro} />;
  return (
    <>
      <Erro erro={erro} />
      {aviso && <Sucesso>{aviso}</Sucesso>}
      {segredo && (
        <SegredoUmaVez segredo={segredo.segredo}>
          {segredo.antigoValidoAte && (
            <p>
              Até {dataHora(segredo.antigoValidoAte)} cada entrega leva também a assinatura com o segredo anterior: troque-o no sistema da
              loja antes disso.
            </p>
          )}
        </SegredoUmaVez>
      )}
      {webhook === null ? (
        <section class="cartao" aria-labelledby="sem-webhook">
          <h2 id="sem-webhook">Nenhum webhook cadastrado</h2>
          <p>Sem webhook, os eventos ficam na fila (página Fila) até o sistema da loja buscá-los.</p>
        </section>
      ) : (
        <DadosWebhook webhook={webhook} tipos={tipos} />
      )}
      {gerenciar && !editando && (
        <div class="acoes">
          {webhook && !webhook.saude.ativo && (
            <button type="button" disabled={ocupado} onClick={() => void ativar()}>
              Ativar webhook
            </button>
          )}
          <button type="button" disabled={ocupado} onClick={() => setEditando(true)}>
            {webhook ? 'Editar' : 'Cadastrar webhook'}
          </button>
          {webhook && (
            <>
              <button type="button" disabled={ocupado} onClick={() => void rotacionar()}>
                Rotacionar segredo
              </button>
              <button type="button" disabled={ocupado} onClick={() => void enviarTeste()}>
                Enviar evento de teste
              </button>
            </>
          )}
        </div>
      )}
      {gerenciar && editando && (
        <FormularioWebhook webhook={webhook} tipos={tipos} ocupado={ocupado} aoSalvar={cadastrar} aoCancelar={() => setEditando(false)} />
      )}
      {teste && <ResultadoTeste teste={teste} />}
    </>
  );
}

function DadosWebhook({ webhook, tipos }: { webhook: Webhook; tipos: TipoEvento[] }) {
  const { saude } = webhook;
  return (
    <>
      <section class="cartao" aria-labelledby="dados-webhook">
        <h2 id="dados-webhook">Cadastro</h2>
        <dl>
          <Campo nome="URL">
            <code class="quebra">{webhook.url}</code>
          </Campo>
          <Campo nome="Cadastrado em">{dataHora(webhook.criadoEm)}</Campo>
          <Campo nome="Eventos recebidos">
            <ul class="flags">
              {tipos.map((tipo) => (
                <li key={tipo.evento}>
                  <span class={webhook.eventos[tipo.flag] ? 'selo ligado' : 'selo desligado'}>{webhook.eventos[tipo.flag] ? 'ligado' : 'desligado'}</span>{' '}
                  <code>{tipo.evento}</code>
                </li>
              ))}
            </ul>
          </Campo>
        </dl>
      </section>
      <section class="cartao" aria-labelledby="saude-webhook">
        <h2 id="saude-webhook">Saúde</h2>
        <p>
          <span class={saude.ativo ? 'selo ligado' : 'selo desligado'}>{saude.ativo ? 'Ativo' : 'Desativado'}</span>
          {!saude.ativo && saude.motivoDesativacao && (
            <>
              {' '}
              desde {dataHora(saude.dataDesativacao)}: {saude.motivoDesativacao}. Os eventos vão para a fila até o webhook ser ativado.
            </>
          )}
        </p>
        <dl>
          <Campo nome="Última entrega">{dataHora(saude.ultimaEntrega)}</Campo>
          <Campo nome="Última falha">{dataHora(saude.ultimaFalha)}</Campo>
          <Campo nome="Último erro">{saude.ultimoErro ?? '—'}</Campo>
          <Campo nome="Falhas seguidas">{saude.falhasSeguidas}</Campo>
          <Campo nome="Sucesso nas últimas 24 h">{saude.taxaSucesso24h === null ? '—' : `${Math.round(saude.taxaSucesso24h * 1000) / 10} %`}</Campo>
        </dl>
      </section>
    </>
  );
}

function FormularioWebhook({
  webhook,
  tipos,
  ocupado,
  aoSalvar,
  aoCancelar,
}: {
  webhook: Webhook | null;
  tipos: TipoEvento[];
  ocupado: boolean;
  aoSalvar: (url: string, eventos: Flags) => void;
  aoCancelar: () => void;
}) {
  const [url, setUrl] = useState(webhook?.url ?? '');
  const [eventos, setEventos] = useState<Flags>(
    webhook?.eventos ?? (Object.fromEntries(tipos.map((tipo) => [tipo.flag, true])) as Flags),
  );
  return (
    <form
      class="cartao"
      aria-labelledby="editar-webhook"
      onSubmit={(evento) => {
        evento.preventDefault();
        aoSalvar(url, eventos);
      }}
    >
      <h2 id="editar-webhook">{webhook ? 'Editar webhook' : 'Cadastrar webhook'}</h2>
      <p>
        A Trilha verifica a URL (ela deve responder 200) e cria um novo segredo de assinatura, mostrado uma única vez.
      </p>
      <label for="url-webhook">URL HTTPS</label>
      <input id="url-webhook" type="url" required maxLength={2048} value={url} onInput={(e) => setUrl(e.currentTarget.value)} />
      <fieldset>
        <legend>Eventos recebidos</legend>
        {tipos.map((tipo) => (
          <div class="opcao" key={tipo.flag}>
            <input
              id={`flag-${tipo.flag}`}
              type="checkbox"
              checked={eventos[tipo.flag]}
              onChange={(e) => setEventos({ ...eventos, [tipo.flag]: e.currentTarget.checked })}
            />
            <label for={`flag-${tipo.flag}`}>
              <code>{tipo.evento}</code> — {tipo.resumo}
            </label>
          </div>
        ))}
      </fieldset>
      <div class="acoes">
        <button type="submit" disabled={ocupado}>
          Salvar
        </button>
        <button type="button" class="secundario" onClick={aoCancelar}>
          Cancelar
        </button>
      </div>
    </form>
  );
}

function ResultadoTeste({ teste }: { teste: RespostaTeste }) {
  return (
    <section class="cartao" aria-labelledby="resultado-teste" role="status">
      <h2 id="resultado-teste">Resposta ao evento de teste</h2>
      <dl>
        <Campo nome="Status HTTP">{teste.statusHttp ?? 'sem resposta'}</Campo>
        <Campo nome="Duração">{teste.duracaoMs} ms</Campo>
        <Campo nome="Erro">{teste.erro ?? '—'}</Campo>
      </dl>
      {teste.resposta !== null && <Texto rotulo="Corpo da resposta ao teste" valor={teste.resposta} />}
    </section>
  );
}
