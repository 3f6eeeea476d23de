// Four projects: unit tests beside the code (*.spec.ts), integration tests against the real
// PostgreSQL, Kafka and Redis (*.int.spec.ts), end-to-end tests against the running stack over
// HTTPS (*.e2e.spec.ts), and tests that need the stack to themselves (*.serial.spec.ts): they
// restart infrastructure under it, start processes that join the services' consumer groups, or
// rebuild read models that the other tests read. `npm test` starts the stack and passes it in
// TRILHA_STACK_FILE.
const { compilerOptions } = require('./tsconfig.base.json');

const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
  },
];

const moduleNameMapper = Object.fromEntries(
  Object.entries(compilerOptions.paths).map(([alias, [target]]) => [`^${alias.replace('/', '\\/')}$`, `<rootDir>/${target}`]),
);

const common = {
  rootDir: __dirname,
  transform: { '^.+\\.ts$': swc },
  moduleNameMapper,
  testEnvironment: 'node',
  roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/tools'],
};

module.exports = {
  // Longer than a test's wait for something asynchronous (PATIENCE_MS in @trilha/testing), so a
  // test that gives up says what it was waiting for.
  testTimeout: 120_000,
  projects: [
    { ...common, displayName: 'unit', testMatch: ['**/*.spec.ts'], testPathIgnorePatterns: ['\\.(int|e2e|serial)\\.spec\\.ts$'] },
    { ...common, displayName: 'integration', testMatch: ['**/*.int.spec.ts'] },
    { ...common, displayName: 'e2e', testMatch: ['**/*.e2e.spec.ts'] },
    // Run alone, one file at a time, after the others.
    { ...common, displayName: 'serial', testMatch: ['**/*.serial.spec.ts'] },
  ],
};
