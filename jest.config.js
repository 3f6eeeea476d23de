// Four projects: unit tests beside the code (*.spec.ts), integration tests against the real
// PostgreSQL, Kafka and Redis (*.int.spec.ts), end-to-end tests against the running stack over
// HTTPS (*.e2e.spec.ts), and fault tests that restart the infrastructure under it
// (*.faults.spec.ts). `npm test` starts the stack and passes it in TRILHA_STACK_FILE.
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
  testTimeout: 60_000,
  projects: [
    { ...common, displayName: 'unit', testMatch: ['**/*.spec.ts'], testPathIgnorePatterns: ['\\.(int|e2e|faults)\\.spec\\.ts$'] },
    { ...common, displayName: 'integration', testMatch: ['**/*.int.spec.ts'] },
    { ...common, displayName: 'e2e', testMatch: ['**/*.e2e.spec.ts'] },
    // Restart Kafka or PostgreSQL under the running stack: run alone, after the others.
    { ...common, displayName: 'faults', testMatch: ['**/*.faults.spec.ts'] },
  ],
};
