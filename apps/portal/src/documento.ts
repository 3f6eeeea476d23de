import type { components } from '@trilha/api-client';
import { ApiError } from './api';

/** A JSON Schema as the OpenAPI document writes it (3.1): the parts the catalog shows. */
export type Esquema = {
  $ref?: string;
  type?: string | string[];
  format?: string;
  description?: string;
  enum?: unknown[];
  const?: unknown;
  nullable?: boolean;
  properties?: Record<string, Esquema>;
  required?: string[];
  items?: Esquema;
  additionalProperties?: boolean | Esquema;
  oneOf?: Esquema[];
  anyOf?: Esquema[];
  allOf?: Esquema[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
};

type FlagWebhook = keyof components['schemas']['EventosWebhook'];

/** One notification type as the document's `webhooks` section describes it. */
export type TipoEvento = {
  evento: string;
  resumo: string;
  descricao: string;
  flag: FlagWebhook;
  esquema: Esquema;
  exemplo: unknown;
};

type Documento = {
  webhooks: Record<
    string,
    {
      post: {
        summary: string;
        description: string;
        'x-trilha-flag': FlagWebhook;
        requestBody: { content: { 'application/json': { schema: Esquema; example?: unknown } } };
      };
    }
  >;
  components: { schemas: Record<string, Esquema> };
};

export type Catalogo = { tipos: TipoEvento[]; esquemas: Record<string, Esquema> };

let carregado: Promise<Catalogo> | undefined;

/**
 * The notification catalog, from the API's own OpenAPI document (GET /v1/openapi.json): the same
 * list that drives delivery and the document, read once per page load.
 */
export function catalogo(): Promise<Catalogo> {
  carregado ??= (async () => {
    const resposta = await fetch('/v1/openapi.json');
    if (!resposta.ok) throw new ApiError(resposta.status, { detail: 'Não foi possível ler o catálogo de eventos da API.' });
    const documento = (await resposta.json()) as Documento;
    const tipos = Object.entries(documento.webhooks).map(([evento, { post }]) => ({
      evento,
      resumo: post.summary,
      descricao: post.description,
      flag: post['x-trilha-flag'],
      esquema: post.requestBody.content['application/json'].schema,
      exemplo: post.requestBody.content['application/json'].example,
    }));
    return { tipos, esquemas: documento.components.schemas };
  })();
  carregado.catch(() => (carregado = undefined));
  return carregado;
}
