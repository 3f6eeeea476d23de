import type { ComponentChildren } from 'preact';
import { ApiError } from './api';

/** What went wrong, in the API's own words (its problem document), announced to screen readers. */
export function Erro({ erro }: { erro: unknown }) {
  if (!erro) return null;
  const texto = erro instanceof ApiError ? erro.message : 'Algo deu errado. Tente de novo.';
  const erros = erro instanceof ApiError ? (erro.problema.erros ?? []) : [];
  return (
    <div class="aviso erro" role="alert">
      <p>{texto}</p>
      {erros.length > 0 && (
        <ul>
          {erros.map((e) => (
            <li key={e.campo}>
              <code>{e.campo}</code>: {e.mensagem}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** A change that succeeded, announced politely. */
export function Sucesso({ children }: { children: ComponentChildren }) {
  return (
    <div class="aviso sucesso" role="status">
      {children}
    </div>
  );
}

/** Customer or receiver text, shown exactly as it is (never as markup), scrollable when long. */
export function Texto({ valor, rotulo }: { valor: string; rotulo: string }) {
  return (
    <pre class="texto" tabIndex={0} aria-label={rotulo}>
      <code>{valor}</code>
    </pre>
  );
}

/** A secret the API shows only once: the page says so and offers to copy it. */
export function SegredoUmaVez({ segredo, children }: { segredo: string; children?: ComponentChildren }) {
  return (
    <div class="aviso segredo" role="status">
      <p>
        <strong>Novo segredo de assinatura</strong> — guarde-o agora no sistema da loja: ele não será mostrado de novo.
      </p>
      <p>
        <code class="segredo-valor">{segredo}</code>{' '}
        <button type="button" class="secundario" onClick={() => void navigator.clipboard?.writeText(segredo)}>
          Copiar
        </button>
      </p>
      {children}
    </div>
  );
}

/** A labelled value of a description list. */
export function Campo({ nome, children }: { nome: string; children: ComponentChildren }) {
  return (
    <div class="campo">
      <dt>{nome}</dt>
      <dd>{children}</dd>
    </div>
  );
}
