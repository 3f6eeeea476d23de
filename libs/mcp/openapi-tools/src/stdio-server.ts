import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';

export interface ToolDefinition {
  tool: Tool;
  run(args: Record<string, unknown>): Promise<CallToolResult>;
}

/** A tool result carrying text for any client and the same data as structured content. */
export function structured(data: Record<string, unknown>, text = JSON.stringify(data, null, 2)): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: data };
}

export function toolError(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/**
 * Serves tools over stdio. stdout carries only the protocol; anything else a server has to say
 * goes to stderr.
 */
export async function serveTools(name: string, version: string, instructions: string, tools: ToolDefinition[]): Promise<void> {
  const server = new Server({ name, version }, { capabilities: { tools: {} }, instructions });
  const byName = new Map(tools.map((definition) => [definition.tool.name, definition]));
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: tools.map((definition) => definition.tool) }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const definition = byName.get(request.params.name);
    if (!definition) return toolError(`Ferramenta desconhecida: ${request.params.name}. Disponíveis: ${[...byName.keys()].join(', ')}.`);
    try {
      return await definition.run(request.params.arguments ?? {});
    } catch (error) {
      process.stderr.write(`${name}: ${request.params.name} failed: ${(error as Error).stack}\n`);
      return toolError(`Falha inesperada em ${request.params.name}: ${(error as Error).message}`);
    }
  });
  await server.connect(new StdioServerTransport());
}
