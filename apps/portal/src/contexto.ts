import { createContext } from 'preact';
import { useCallback, useContext, useState } from 'preact/hooks';
import { ApiError } from './api';

/** What every page knows of the session: whether it may change things, and how to end the portal when the session is gone. */
export type ContextoPortal = { gerenciar: boolean; aoPerderSessao: (erro: ApiError) => void };

export const Portal = createContext<ContextoPortal>({ gerenciar: false, aoPerderSessao: () => undefined });

export function usePortal(): ContextoPortal {
  return useContext(Portal);
}

/**
 * Runs a page's calls to the API: `ocupado` while one runs (buttons wait), `erro` with the API's
 * problem when one fails, and a 401 (the session ended or expired) ends the portal instead.
 */
export function useTarefa() {
  const { aoPerderSessao } = usePortal();
  const [erro, setErro] = useState<unknown>(null);
  const [ocupado, setOcupado] = useState(false);
  const executar = useCallback(
    async (tarefa: () => Promise<void>): Promise<void> => {
      setOcupado(true);
      setErro(null);
      try {
        await tarefa();
      } catch (falha) {
        if (falha instanceof ApiError && falha.status === 401) aoPerderSessao(falha);
        else setErro(falha);
      } finally {
        setOcupado(false);
      }
    },
    [aoPerderSessao],
  );
  return { erro, ocupado, executar };
}
