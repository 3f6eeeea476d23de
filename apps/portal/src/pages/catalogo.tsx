import { useEffect, useState } from 'preact/hooks';
import { Erro, Texto } from '../componentes';
import { useTarefa } from '../contexto';
import { catalogo, type Catalogo, type Esquema } from '../documento';

/** Every notification type: what it means, when it is sent, its body's schema and an example. */
export function PaginaCatalogo() {
  const [dados, setDados] = useState<Catalogo | null>(null);
  const { erro, executar } = useTarefa();
  useEffect(() => void executar(async () => setDados(await catalogo())), []);

  return (
    <>
      <p class="introducao">
        Os eventos que a Trilha envia ao webhook da loja (POST com JSON assinado pelo padrão Standard Webhooks) ou guarda na fila
        quando não há webhook.
      </p>
      <Erro erro={erro} />
      {dados?.tipos.map((tipo) => (
        <section class="cartao" key={tipo.evento} aria-labelledby={`evento-${tipo.evento}`}>
          <h2 id={`evento-${tipo.evento}`}>
            <code>{tipo.evento}</code>
          </h2>
          <p>{tipo.resumo}</p>
          <p class="secundario">{tipo.descricao}</p>
          <p>
            Ligado no webhook pelo campo <code>{tipo.flag}</code>.
          </p>
          <h3>Corpo</h3>
          <ArvoreEsquema esquema={tipo.esquema} esquemas={dados.esquemas} />
          {tipo.exemplo !== undefined && (
            <>
              <h3>Exemplo</h3>
              <Texto rotulo={`Exemplo de ${tipo.evento}`} valor={JSON.stringify(tipo.exemplo, null, 2)} />
            </>
          )}
        </section>
      ))}
    </>
  );
}

const REF = '#/components/schemas/';
/** Deeper than any payload of the catalog; stops a schema that refers to itself. */
const PROFUNDIDADE_MAXIMA = 8;

function resolver(esquema: Esquema, esquemas: Record<string, Esquema>): Esquema {
  return esquema.$ref?.startsWith(REF) ? (esquemas[esquema.$ref.slice(REF.length)] ?? esquema) : esquema;
}

/** A schema's type in a few words: `string (date-time)`, `"a" | "b"`, `lista de objeto`, `… ou nulo`. */
function tipoDe(bruto: Esquema, esquemas: Record<string, Esquema>): string {
  const esquema = resolver(bruto, esquemas);
  if (esquema.const !== undefined) return JSON.stringify(esquema.const);
  if (esquema.enum) return esquema.enum.map((valor) => JSON.stringify(valor)).join(' | ');
  const alternativas = esquema.oneOf ?? esquema.anyOf;
  if (alternativas) return alternativas.map((alternativa) => tipoDe(alternativa, esquemas)).join(' ou ');
  const tipos = (Array.isArray(esquema.type) ? esquema.type : [esquema.type ?? 'objeto']).map((tipo) =>
    tipo === 'array' ? `lista de ${esquema.items ? tipoDe(esquema.items, esquemas) : 'valores'}` : tipo === 'null' ? 'nulo' : tipo === 'object' ? 'objeto' : tipo,
  );
  if (esquema.nullable) tipos.push('nulo');
  return `${tipos.join(' ou ')}${esquema.format ? ` (${esquema.format})` : ''}`;
}

/** A schema's properties as a nested list: name, type, whether required, description. */
function ArvoreEsquema({ esquema: bruto, esquemas, profundidade = 0 }: { esquema: Esquema; esquemas: Record<string, Esquema>; profundidade?: number }) {
  const esquema = resolver(bruto, esquemas);
  const objeto = esquema.items ? resolver(esquema.items, esquemas) : esquema;
  const propriedades = Object.entries(objeto.properties ?? {});
  if (propriedades.length === 0 || profundidade >= PROFUNDIDADE_MAXIMA) return null;
  const obrigatorias = new Set(objeto.required ?? []);
  return (
    <ul class="esquema">
      {propriedades.map(([nome, propriedade]) => {
        const resolvida = resolver(propriedade, esquemas);
        return (
          <li key={nome}>
            <code class="propriedade">{nome}</code> <span class="tipo">{tipoDe(propriedade, esquemas)}</span>
            {obrigatorias.has(nome) ? <span class="selo">obrigatório</span> : <span class="selo opcional">opcional</span>}
            {(resolvida.description ?? propriedade.description) && <p class="descricao">{propriedade.description ?? resolvida.description}</p>}
            <ArvoreEsquema esquema={resolvida} esquemas={esquemas} profundidade={profundidade + 1} />
          </li>
        );
      })}
    </ul>
  );
}
