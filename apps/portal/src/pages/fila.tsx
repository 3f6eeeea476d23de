import { useEffect, useState } from 'preact/hooks';
import { api, ok } from '../api';
import { Erro, Sucesso, Texto } from '../componentes';
import { usePortal, useTarefa } from '../contexto';
import { dataHora } from '../formato';

/** The most the API lists at once (GET /fila/lista?limite=). */
const LIMITE = 500;
const carregar = async () => ok(api.GET('/fila/lista', { params: { query: { limite: LIMITE } } }));
type Fila = Awaited<ReturnType<typeof carregar>>;

/** The store's queue: events kept for its system to fetch, with their payloads; delete one or many. */
export function PaginaFila() {
  const { gerenciar } = usePortal();
  const [fila, setFila] = useState<Fila | null>(null);
  const [marcados, setMarcados] = useState<Set<string>>(new Set());
  const [aviso, setAviso] = useState<string | null>(null);
  const { erro, ocupado, executar } = useTarefa();

  const recarregar = async () => {
    const atual = await carregar();
    setFila(atual);
    setMarcados((antes) => new Set(atual.eventos.map((item) => item.idDocumento).filter((id) => antes.has(id))));
  };
  useEffect(() => void executar(recarregar), []);

  const removerUm = (codigo: string) =>
    executar(async () => {
      setAviso(null);
      await ok(api.DELETE('/fila/delete', { params: { query: { codigo } } }));
      setAviso('Evento removido da fila.');
      await recarregar();
    });
  const removerMarcados = () =>
    executar(async () => {
      setAviso(null);
      const { removidos, naoEncontrados } = await ok(api.POST('/fila/remover', { body: { codigos: [...marcados] } }));
      setAviso(
        `${removidos.length === 1 ? '1 evento removido' : `${removidos.length} eventos removidos`}${naoEncontrados.length > 0 ? `; ${naoEncontrados.length} já não estavam na fila` : ''}.`,
      );
      await recarregar();
    });
  const marcar = (id: string, marcado: boolean) => {
    const novos = new Set(marcados);
    if (marcado) novos.add(id);
    else novos.delete(id);
    setMarcados(novos);
  };

  return (
    <>
      <p class="introducao">
        Eventos guardados para o sistema da loja buscar (sem webhook, ou depois que todas as tentativas do webhook falharam), os mais
        antigos primeiro.
      </p>
      <Erro erro={erro} />
      {aviso && <Sucesso>{aviso}</Sucesso>}
      {fila && (
        <>
          <p>{fila.total === 1 ? '1 evento na fila.' : `${fila.total} eventos na fila.`}{fila.total > fila.eventos.length && ` Mostrando os ${fila.eventos.length} mais antigos.`}</p>
          {gerenciar && fila.eventos.length > 0 && (
            <div class="acoes">
              <div class="opcao">
                <input
                  id="marcar-todos"
                  type="checkbox"
                  checked={marcados.size === fila.eventos.length}
                  onChange={(e) => setMarcados(new Set(e.currentTarget.checked ? fila.eventos.map((item) => item.idDocumento) : []))}
                />
                <label for="marcar-todos">Marcar todos</label>
              </div>
              <button type="button" disabled={ocupado || marcados.size === 0} onClick={() => void removerMarcados()}>
                Remover marcados ({marcados.size})
              </button>
            </div>
          )}
          <ul class="itens-fila">
            {fila.eventos.map((item) => (
              <li class="cartao" key={item.idDocumento}>
                <div class="cabeca-item">
                  {gerenciar && (
                    <div class="opcao">
                      <input
                        id={`marcar-${item.idDocumento}`}
                        type="checkbox"
                        checked={marcados.has(item.idDocumento)}
                        onChange={(e) => marcar(item.idDocumento, e.currentTarget.checked)}
                      />
                      <label for={`marcar-${item.idDocumento}`}>
                        <span class="visualmente-oculto">Marcar </span>
                        <code>{item.evento}</code>
                      </label>
                    </div>
                  )}
                  {!gerenciar && <code>{item.evento}</code>}
                  <span>{dataHora(item.dataCriacao)}</span>
                  {item.entregaFalhou && <span class="selo falhou">Webhook falhou</span>}
                  {gerenciar && (
                    <button type="button" class="secundario" disabled={ocupado} onClick={() => void removerUm(item.idDocumento)}>
                      Remover<span class="visualmente-oculto"> o evento de {dataHora(item.dataCriacao)}</span>
                    </button>
                  )}
                </div>
                <Texto rotulo={`Dados do evento ${item.evento} de ${dataHora(item.dataCriacao)}`} valor={JSON.stringify(item.data, null, 2)} />
              </li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}
