import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import noImportCycles from './no-import-cycles.cjs';

describe('trilha/no-import-cycles', () => {
  const dir = mkdtempSync(join(tmpdir(), 'import-cycles-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Writes the files, then lints `file` as ESLint would; resolves with the messages of the rule. */
  function lint(files: Record<string, string>, file: string): string[] {
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    const linter = new Linter({ cwd: dir });
    const config = [
      {
        files: ['**/*.ts'],
        languageOptions: { parser: tseslint.parser as Linter.Parser },
        plugins: { trilha: { rules: { 'no-import-cycles': noImportCycles } } },
        rules: { 'trilha/no-import-cycles': 'error' as const },
      },
    ];
    return linter.verify(files[file], config, { filename: join(dir, file) }).map((message) => message.message);
  }

  it('reports a cycle made by a type-only import, with its path', () => {
    const files = {
      'run.ts': `import { parked } from './parked';\nexport interface Spec { name: string }\nexport const run = () => parked;\n`,
      'parked.ts': `import type { Spec } from './run';\nexport const parked = (spec?: Spec) => spec;\n`,
    };
    expect(lint(files, 'run.ts')).toEqual(['Import cycle: run.ts → parked.ts → run.ts.']);
    expect(lint(files, 'parked.ts')).toEqual(['Import cycle: parked.ts → run.ts → parked.ts.']);
  });

  it('follows re-exports and index files over several steps', () => {
    const files = { 'a.ts': `export * from './b';\n`, 'b.ts': `export { c } from './c';\n`, 'c.ts': `import { a } from './';\nexport const c = a;\n`, 'index.ts': `export const a = 1;\nexport * from './a';\n` };
    expect(lint(files, 'a.ts')).toEqual(['Import cycle: a.ts → b.ts → c.ts → index.ts → a.ts.']);
  });

  it('accepts imports that lead nowhere back, and packages', () => {
    const files = { 'x.ts': `import { y } from './y';\nimport { z } from 'zod';\nexport const x = [y, z];\n`, 'y.ts': `import { w } from './w';\nexport const y = w;\n`, 'w.ts': `export const w = 1;\n` };
    expect(lint(files, 'x.ts')).toEqual([]);
  });
});
