// ESLint rule `trilha/no-import-cycles`: no file reaches itself again through the files it imports
// by relative path, type-only imports included. A cycle makes the order of evaluation decide what
// a module sees of another (undefined at load time), and says two files are one concern split in
// two. Cycles between projects are @nx/enforce-module-boundaries' concern; a project's own files
// import each other by relative path, which this follows.
const { readFileSync, statSync } = require('node:fs');
const { dirname, relative, resolve } = require('node:path');
const ts = require('typescript');

/** By file: its modification time and the files it imports by relative path. */
const imported = new Map();

function isFile(path) {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The TypeScript file a relative specifier names, as TypeScript resolves it; undefined for another kind of file. */
function resolveRelative(from, specifier) {
  const base = resolve(dirname(from), specifier);
  return [`${base}.ts`, resolve(base, 'index.ts'), base].find((candidate) => candidate.endsWith('.ts') && isFile(candidate));
}

/** The files `file` imports by relative path, as saved (read again once it changes). */
function importsOf(file) {
  const modified = statSync(file).mtimeMs;
  const cached = imported.get(file);
  if (cached?.modified === modified) return cached.files;
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  const files = importedFiles.filter(({ fileName }) => fileName.startsWith('.')).map(({ fileName }) => resolveRelative(file, fileName)).filter(Boolean);
  imported.set(file, { modified, files });
  return files;
}

/** A path of imports from `start` back to `file`, or undefined. */
function pathBack(start, file) {
  const seen = new Set();
  const walk = (current) => {
    if (current === file) return [current];
    if (seen.has(current)) return undefined;
    seen.add(current);
    for (const next of importsOf(current)) {
      const rest = walk(next);
      if (rest) return [current, ...rest];
    }
    return undefined;
  };
  return walk(start);
}

/** @type {import('eslint').Rule.RuleModule} */
module.exports = {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid import cycles between the files of a project (relative imports, type-only ones included).' },
    schema: [],
    messages: { cycle: 'Import cycle: {{cycle}}.' },
  },
  create(context) {
    const file = context.filename;
    const check = (node) => {
      const specifier = node.source?.value;
      if (typeof specifier !== 'string' || !specifier.startsWith('.')) return;
      const target = resolveRelative(file, specifier);
      if (!target) return;
      const back = pathBack(target, file);
      if (back) context.report({ node: node.source, messageId: 'cycle', data: { cycle: [file, ...back].map((path) => relative(context.cwd, path)).join(' → ') } });
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check };
  },
};
