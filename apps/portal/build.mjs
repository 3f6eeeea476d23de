// Builds the store portal (a browser app, Preact) into dist/portal/: index.html and, under
// assets/, the script and the style sheet with a content hash in their names (served as immutable),
// each beside its Brotli (.br) and gzip (.gz) copy, so the gateway sends them compressed without
// compressing per request. The page has no inline script or style: the CSP needs no 'unsafe-inline'.
import { build } from 'esbuild';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const root = resolve(import.meta.dirname, '../..');
const out = join(root, 'dist/portal');
const assets = join(out, 'assets');

rmSync(out, { recursive: true, force: true });
mkdirSync(assets, { recursive: true });

const result = await build({
  absWorkingDir: root,
  entryPoints: ['apps/portal/src/main.tsx'],
  tsconfig: 'apps/portal/tsconfig.json',
  bundle: true,
  minify: true,
  format: 'esm',
  target: ['es2022'],
  entryNames: '[name]-[hash]',
  outdir: assets,
  metafile: true,
  legalComments: 'none',
  logLevel: 'warning',
});

const outputs = Object.keys(result.metafile.outputs).map((file) => basename(file));
const script = outputs.find((file) => file.endsWith('.js'));
const style = outputs.find((file) => file.endsWith('.css'));
if (!script || !style) throw new Error(`the portal build wrote ${outputs.join(', ')}: a script and a style sheet expected`);

const html = readFileSync(join(root, 'apps/portal/src/index.html'), 'utf8')
  .replace('%SCRIPT%', `assets/${script}`)
  .replace('%STYLE%', `assets/${style}`);
writeFileSync(join(out, 'index.html'), html);

const compressible = [join(out, 'index.html'), ...outputs.map((file) => join(assets, file))];
let total = 0;
for (const file of compressible) {
  const content = readFileSync(file);
  const br = brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: content.length } });
  writeFileSync(`${file}.br`, br);
  writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
  total += br.length;
}
process.stdout.write(`portal: ${compressible.map((file) => relative(root, file)).join(', ')} → ${(total / 1024).toFixed(1)} kB with Brotli\n`);
