import { useEffect, useState } from 'preact/hooks';
import { api, ok } from '../api';
import { Campo, Erro, Sucesso, Texto } from '../componentes';
import { usePortal, useTarefa } from '../contexto';
import { corpoLegivel, dataHora } from '../formato';
import { fragmentoDe } from '../rotas';
import { STATUS } from './entregas';

const carregar = async (idEntrega: string) => ok(api.GET('/webhook/entregas/{idEntrega}', { params: { path: { idEntrega } } }));
type Entrega = Awaited<ReturnType<typeof carregar>>;

/** One delivery: the request as sent, every attempt and the receiver's answer; resend it. */
export function PaginaEntrega({ idEntrega }: { idEntrega: string }) {
  const { gerenciar } = usePortal();
  const [entrega, setEntrega] = useState<Entrega | null>(null);
  const [reenviada, setReenviada] = useState(false);
  const { erro, ocupado, executar } = useTarefa();

  useEffect(() => void executar(async () => setEntrega(await carregar(idEntrega))), [idEntrega]);

  const reenviar = () =>
    executar(async () => {
      setReenviada(false);
      await ok(api.POST('/webhook/entregas/{idEntrega}/reenviar', { params: { path: { idEntrega } } }));
      setReenviada(true);
      setEntrega(await carregar(idEntrega));
    });

  return (
    <>
      <p>
        <a href={fragmentoDe({ pagina: 'entregas' })}>← Voltar às entregas</a>
      </p>
      <Erro erro={erro} />
      {reenviada && <Sucesso>Entrega reenviada: a nova tentativa aparece aqui quando terminar.</Sucesso>}
      {entrega && (
        <>
          <section class="cartao" aria-labelledby="resumo-entrega">
            <h2 id="resumo-entrega">
              <code>{entrega.evento}</code> <span class={`selo ${entrega.status}`}>{STATUS[entrega.status]}</span>
            </h2>
            <dl>
              <Campo nome="Id da entrega">
                <code>{entrega.idEntrega}</code>
              </Campo>
              <Campo nome="Id do evento (webhook-id)">
                <code>{entrega.idEvento}</code>
              </Campo>
              <Campo nome="Ocorrido em">{dataHora(entrega.ocorridoEm)}</Campo>
              <Campo nome="Próxima tentativa">{dataHora(entrega.proximaTentativa)}</Campo>
            </dl>
            {gerenciar && (
              <div class="acoes">
                <button type="button" disabled={ocupado} onClick={() => void reenviar()}>
                  Reenviar
                </button>
              </div>
            )}
          </section>
          <section class="cartao" aria-labelledby="requisicao">
            <h2 id="requisicao">Requisição enviada</h2>
            <p>
              <code class="quebra">{entrega.requisicao.url === null ? 'Ainda não enviada.' : `POST ${entrega.requisicao.url}`}</code>
            </p>
            <Cabecalhos cabecalhos={entrega.requisicao.cabecalhos} rotulo="Cabeçalhos da requisição" />
            <h3>Corpo</h3>
            <Texto rotulo="Corpo da requisição" valor={corpoLegivel(entrega.requisicao.corpo)} />
          </section>
          <section aria-labelledby="tentativas">
            <h2 id="tentativas">Tentativas</h2>
            {entrega.tentativas.length === 0 && <p>Nenhuma tentativa ainda.</p>}
            {entrega.tentativas.map((tentativa) => (
              <article class="cartao" key={tentativa.numero} aria-labelledby={`tentativa-${tentativa.numero}`}>
                <h3 id={`tentativa-${tentativa.numero}`}>
                  Tentativa {tentativa.numero} · {dataHora(tentativa.dataHora)}
                </h3>
                <dl>
                  <Campo nome="URL">
                    <code class="quebra">{tentativa.url}</code>
                  </Campo>
                  <Campo nome="Status HTTP">{tentativa.statusHttp ?? 'sem resposta'}</Campo>
                  <Campo nome="Duração">{tentativa.duracaoMs} ms</Campo>
                  <Campo nome="Erro">{tentativa.erro ?? '—'}</Campo>
                </dl>
                <details>
                  <summary>Cabeçalhos enviados</summary>
                  <Cabecalhos cabecalhos={tentativa.cabecalhos} rotulo={`Cabeçalhos da tentativa ${tentativa.numero}`} />
                </details>
                {tentativa.resposta !== null && (
                  <>
                    <h4>Início da resposta</h4>
                    <Texto rotulo={`Resposta à tentativa ${tentativa.numero}`} valor={tentativa.resposta} />
                  </>
                )}
              </article>
            ))}
          </section>
        </>
      )}
    </>
  );
}

/** The headers of a request; none recorded (an attempt made before they were kept) reads as such. */
function Cabecalhos({ cabecalhos, rotulo }: { cabecalhos: Record<string, string> | null; rotulo: string }) {
  if (cabecalhos === null) return <p>Cabeçalhos não registrados.</p>;
  return (
    <div class="rolagem">
      <table aria-label={rotulo}>
        <tbody>
          {Object.entries(cabecalhos).map(([nome, valor]) => (
            <tr key={nome}>
              <th scope="row">
                <code>{nome}</code>
              </th>
              <td>
                <code class="quebra">{valor}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
