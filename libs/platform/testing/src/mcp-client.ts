import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { resolve } from 'node:path';

const root = resolve(__dirname, '../../../..');

/**
 * Connects the MCP SDK's own client to one of the repository's `bin/` tool servers over stdio,
 * as an MCP client application would. The transport passes only the variables given here.
 */
export async function connectToolServer(bin: string, env: Record<string, string> = {}): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: resolve(root, 'bin', bin),
    env: { PATH: process.env.PATH ?? '', ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'trilha-tests', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}
