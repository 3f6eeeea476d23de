import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';
import noImportCycles from './tools/eslint/no-import-cycles.cjs';

// Module boundaries: what may depend on what. A domain lib imports no transport or ORM;
// a util lib imports only other utils; contexts reach each other only through contracts.
const transportAndStorage = [
  '@nestjs/*', 'typeorm', 'pg', 'kafkajs', 'ioredis', 'fastify', '@trilha/event-store',
];

export default [
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '.trilha/**', '**/*.mjs', '**/*.cjs', '**/*.js'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    plugins: { '@nx': nx, trilha: { rules: { 'no-import-cycles': noImportCycles } } },
    rules: {
      'trilha/no-import-cycles': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          depConstraints: [
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:runtime', 'type:feature', 'type:data-access', 'type:domain', 'type:util'] },
            { sourceTag: 'type:runtime', onlyDependOnLibsWithTags: ['type:data-access', 'type:util'] },
            { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:feature', 'type:data-access', 'type:domain', 'type:util'] },
            { sourceTag: 'type:feature', onlyDependOnLibsWithTags: ['type:data-access', 'type:domain', 'type:util'] },
            { sourceTag: 'type:data-access', onlyDependOnLibsWithTags: ['type:domain', 'type:util'] },
            { sourceTag: 'type:domain', onlyDependOnLibsWithTags: ['type:domain', 'type:util'], bannedExternalImports: transportAndStorage },
            // A context's domain owns its events; the wire contracts are its routing adapter's concern.
            { allSourceTags: ['type:domain', 'scope:tracking'], notDependOnLibsWithTags: ['kind:contracts'] },
            { allSourceTags: ['type:domain', 'scope:atendimento'], notDependOnLibsWithTags: ['kind:contracts'] },
            { allSourceTags: ['type:domain', 'scope:lojas'], notDependOnLibsWithTags: ['kind:contracts'] },
            { sourceTag: 'type:util', onlyDependOnLibsWithTags: ['type:util'] },
            { sourceTag: 'type:test-util', onlyDependOnLibsWithTags: ['type:util'] },
            { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
            // Build tools assemble what the contexts declare (the OpenAPI document).
            { sourceTag: 'scope:tools', onlyDependOnLibsWithTags: ['scope:shared', 'scope:gateway', 'scope:lojas', 'scope:tracking', 'scope:atendimento', 'scope:delivery'] },
            { sourceTag: 'scope:lojas', onlyDependOnLibsWithTags: ['scope:lojas', 'scope:shared'] },
            { sourceTag: 'scope:gateway', onlyDependOnLibsWithTags: ['scope:gateway', 'scope:lojas', 'scope:shared'] },
            { sourceTag: 'scope:tracking', onlyDependOnLibsWithTags: ['scope:tracking', 'scope:shared'] },
            { sourceTag: 'scope:atendimento', onlyDependOnLibsWithTags: ['scope:atendimento', 'scope:shared'] },
            { sourceTag: 'scope:delivery', onlyDependOnLibsWithTags: ['scope:delivery', 'scope:shared'] },
            { sourceTag: 'scope:mcp', onlyDependOnLibsWithTags: ['scope:mcp'] },
            // The store portal runs in the browser: only the typed API client and other shared utils.
            { sourceTag: 'scope:portal', onlyDependOnLibsWithTags: ['scope:shared'] },
          ],
        },
      ],
    },
  },
  {
    // Controllers are adapters: they translate a request or a message into a handler's call. SQL
    // lives in the handlers and the modules beside them, so a controller has no database to ask.
    files: ['**/*.controller.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: ['typeorm', '@nestjs/typeorm', 'pg'].map((name) => ({ name, message: 'SQL stays out of controllers: a handler reads and writes the database.' })) },
      ],
    },
  },
  {
    // The store portal renders customer text: only as text, never as markup.
    files: ['apps/portal/src/**/*.tsx'],
    rules: {
      'no-restricted-syntax': ['error', { selector: "JSXAttribute[name.name='dangerouslySetInnerHTML']", message: 'The portal renders text only: customer payloads must never become markup.' }],
    },
  },
  {
    // Tests and their fixtures (test-only helpers beside them) may use the shared test helpers wherever they live.
    files: ['**/*.spec.ts', '**/*.fixture.ts'],
    rules: { '@nx/enforce-module-boundaries': 'off' },
  },
];
