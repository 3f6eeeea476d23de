import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { Agent, request } from 'undici';
import { apiClient, createStore, testStack, typedApiClient } from '@trilha/testing';

const stack = testStack();
/** Examples per operation and phase: enough for the fuzzer's every check, within a couple of minutes. */
const MAX_EXAMPLES = 50;
/** One run of the fuzzer, on a loaded 2-core machine; a run that creeps past it fails. */
const FUZZ_BUDGET_MS = 180_000;
/** Fixed seeds, so a failure reproduces; each draws other data, so together they reach further than one. */
const SEEDS = [20261124, 20261125, 20261126];

/** Runs Schemathesis over the live document; resolves with its exit code (null if it ran out of time) and output. */
function schemathesis(token: string, seed: number): Promise<{ code: number | null; output: string }> {
  // In the stack's directory, so what Hypothesis keeps on disk (.hypothesis/) stays out of the repository.
  const child = spawn(stack.schemathesis, [
    '--config-file', join(__dirname, '../../../tools/openapi/schemathesis.toml'),
    'run', `${stack.baseUrl}/openapi.json`,
    '--url', stack.baseUrl,
    '--header', `Authorization: Bearer ${token}`,
    '--tls-verify', stack.caFile,
    '--checks', 'all',
    '--seed', String(seed),
    '--max-examples', String(MAX_EXAMPLES),
    '--no-color',
  ], { cwd: stack.dataDir, env: { ...process.env, SCHEMATHESIS_HOOKS: '' }, timeout: FUZZ_BUDGET_MS });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  return new Promise((done) => child.on('exit', (code) => done({ code, output })));
}

describe('the API is what its OpenAPI document says', () => {
  it.each(SEEDS)('passes every Schemathesis check on every operation, with a store’s token (seed %i)', async (seed) => {
    const loja = await createStore(`Loja do Fuzzer ${seed}`);
    const { code, output } = await schemathesis(loja.token, seed);
    // On failure the report says which operation, which check and how to reproduce it.
    if (code === null) throw new Error(`Schemathesis did not finish within ${FUZZ_BUDGET_MS / 1000} s:\n${output.slice(-20_000)}`);
    if (code !== 0) throw new Error(`Schemathesis failed (exit ${code}):\n${output.slice(-20_000)}`);
    expect(output).toMatch(/No issues found|passed/);
  }, FUZZ_BUDGET_MS + 15_000);

  it('is served as a client generated from the document expects: a conversation opened, messaged and read back', async () => {
    const loja = await createStore('Loja do Cliente Gerado');
    const api = typedApiClient(stack, loja.token);
    const aberto = await api.POST('/atendimentos', { body: { canal: 'chat', tipo: 'rastreio', dadosCliente: { nome: 'Ana' }, mensagem: 'Cadê meu pedido?' } });
    expect(aberto.response.status).toBe(201);
    const idAtendimento = aberto.data!.idAtendimento;
    const mensagem = await api.POST('/atendimentos/{idAtendimento}/mensagens', {
      params: { path: { idAtendimento } },
      body: { direcao: 'saida', remetente: 'atendente:ana', mensagem: 'Já vai chegar!' },
    });
    expect(mensagem.response.status).toBe(201);
    const lido = await api.GET('/atendimentos/{idAtendimento}', { params: { path: { idAtendimento } } });
    expect(lido.data).toMatchObject({ idAtendimento, status: 'aberto', totalMensagens: 2 });
    expect(lido.data!.mensagens.map((m) => m.mensagem)).toEqual(['Cadê meu pedido?', 'Já vai chegar!']);
    const ausente = await api.GET('/atendimentos/{idAtendimento}', { params: { path: { idAtendimento: '0'.repeat(32) } } });
    expect(ausente.error).toMatchObject({ status: 404, title: expect.any(String), detail: expect.any(String) });
  });

  it('is sent compressed to a client that accepts it, like every answer over 1 KB', async () => {
    const api = apiClient(stack.baseUrl, stack.caFile);
    const plain = await api('GET', '/openapi.json');
    expect(plain.headers['content-encoding']).toBeUndefined();
    for (const encoding of ['br', 'gzip']) {
      const response = await request(`${stack.baseUrl}/openapi.json`, { headers: { 'accept-encoding': encoding }, dispatcher: new Agent({ connect: { ca: readFileSync(stack.caFile) } }) });
      expect(response.headers['content-encoding']).toBe(encoding);
      const compressed = Buffer.from(await response.body.arrayBuffer());
      expect(compressed.length).toBeLessThan(plain.text.length / 5);
      expect(JSON.parse(String(encoding === 'br' ? brotliDecompressSync(compressed) : gunzipSync(compressed))).paths).toEqual(plain.body.paths);
    }
    // A small answer is not worth compressing.
    const small = await request(`${stack.baseUrl}/loja`, { headers: { 'accept-encoding': 'br' }, dispatcher: new Agent({ connect: { ca: readFileSync(stack.caFile) } }) });
    await small.body.dump();
    expect(small.headers['content-encoding']).toBeUndefined();
  });
});
