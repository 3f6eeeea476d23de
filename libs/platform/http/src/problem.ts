/** RFC 9457 problem document, as every error leaves the public API. */
export interface ProblemDocument {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  /** Validation errors (400): the first MAX_LISTED_ERRORS invalid fields. */
  erros?: { campo: string; mensagem: string }[];
  /** With `erros`: how many invalid fields there are in all. */
  totalErros?: number;
}

/** Invalid fields a problem lists: enough to fix a request, never a document larger than the request. */
export const MAX_LISTED_ERRORS = 100;

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

const TITLES: Record<number, string> = {
  400: 'Requisição inválida',
  401: 'Não autenticado',
  403: 'Proibido',
  404: 'Não encontrado',
  405: 'Método não permitido',
  409: 'Conflito',
  413: 'Corpo grande demais',
  415: 'Tipo de conteúdo não suportado',
  422: 'Requisição não processável',
  429: 'Limite de requisições excedido',
  500: 'Erro interno',
  503: 'Serviço indisponível',
};

export function problemType(status: number): string {
  return `https://trilha.dev/problemas/${status}`;
}

export function problemTitle(status: number): string {
  return TITLES[status] ?? 'Erro';
}

export function problem(status: number, detail: string, instance: string, erros?: ProblemDocument['erros']): ProblemDocument {
  return { type: problemType(status), title: problemTitle(status), status, detail, instance, ...(erros && { erros: erros.slice(0, MAX_LISTED_ERRORS), totalErros: erros.length }) };
}

/** Writes a problem document on a Fastify reply. */
export function sendProblem(response: { status(code: number): { type(value: string): { send(body: string): unknown } } }, document: ProblemDocument): void {
  response.status(document.status).type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(document));
}
