import { structured, toolError, type HttpCall } from '@trilha/mcp-openapi-tools';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export interface ApiSettings {
  baseUrl: string;
  token?: string;
}

const COMO_DEFINIR_TOKEN =
  'Defina TRILHA_TOKEN com um token da loja: obtenha-o em GET <TRILHA_BASE_URL>/autenticacao/{codigo} (o código da conta vem do operador) ' +
  'e configure a variável de ambiente do servidor trilha-operacional no seu cliente MCP.';

interface Problem {
  status?: number;
  title?: string;
  detail?: string;
  erros?: { campo: string; mensagem: string }[];
}

/**
 * Calls the API with the store's token, as the `mcp` origin. The API's JSON comes back as
 * structured content; a problem document comes back as a tool error carrying its detail.
 */
export async function callApi(settings: ApiSettings, call: HttpCall): Promise<CallToolResult> {
  if (!settings.token) return toolError(`TRILHA_TOKEN não está definido. ${COMO_DEFINIR_TOKEN}`);
  let response: Response;
  try {
    response = await fetch(`${settings.baseUrl}${call.path}`, {
      method: call.method,
      headers: {
        authorization: `Bearer ${settings.token}`,
        accept: 'application/json',
        'x-trilha-origem': 'mcp',
        ...(call.body && { 'content-type': 'application/json' }),
      },
      body: call.body ? JSON.stringify(call.body) : undefined,
      signal: AbortSignal.timeout(30_000),
    });
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message;
    return toolError(`Não foi possível chamar ${settings.baseUrl} (${cause}). Confira TRILHA_BASE_URL e, para um certificado próprio, NODE_EXTRA_CA_CERTS.`);
  }
  const text = await response.text();
  const data = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  if (response.ok) return structured(data);
  const problem = data as Problem;
  const fields = problem.erros?.map((erro) => `- ${erro.campo}: ${erro.mensagem}`).join('\n');
  const hint = response.status === 401 ? `\nO token foi recusado (inválido, expirado ou revogado). ${COMO_DEFINIR_TOKEN}` : '';
  const retry = response.status === 429 ? `\nTente de novo em ${response.headers.get('retry-after') ?? 'alguns'} segundos.` : '';
  return {
    ...toolError(`${response.status} ${problem.title ?? response.statusText}: ${problem.detail ?? text}${fields ? `\n${fields}` : ''}${hint}${retry}`),
    structuredContent: { ...data },
  };
}
