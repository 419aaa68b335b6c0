// @ts-check
import tseslint from 'typescript-eslint';

const APPS = '(gateway|agent-executor|function-runner|scheduler)';

// A later block's `no-restricted-imports` replaces an earlier one for the files both match,
// so every block that sets the rule repeats these patterns.
const NO_APPS = [
  {
    regex: `^(\\.\\./)+(apps/)?${APPS}/`,
    message: 'apps talk only over NATS (libs/contracts), never by import',
  },
  { regex: '(^|/)apps/', message: 'apps talk only over NATS (libs/contracts), never by import' },
];

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      '**/generated/**',
      'coverage/**',
      'data/**',
      'examples/functions/**',
      'bench/peers/node_modules/**',
      'bench/peers/.mastra/**',
    ],
  },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'warn',
    },
  },
  {
    // Apps never import each other, and libs never import apps: they talk over NATS via libs/contracts.
    files: ['apps/**/*.ts', 'libs/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: NO_APPS }],
    },
  },
  {
    // The protocol library and the run engine stay pure: no I/O, no Nest.
    files: ['libs/protocol/**/*.ts', 'libs/agent-core/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...NO_APPS,
            {
              regex:
                '^(@nestjs/|@nats-io/|@prisma/|(ioredis|bullmq|better-sqlite3|pg)$|node:(fs|net|http|https|child_process|dgram|dns|tls)$|@app/(bus|persistence|runtime|functions|observability|config|llm))',
              message: 'agent-core and protocol stay pure: no Nest, NATS, Prisma, Redis, SQL drivers or I/O',
            },
          ],
        },
      ],
    },
  },
  {
    // The model providers are plain classes: usable outside Nest and without the bus or a database.
    files: ['libs/llm/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...NO_APPS,
            { regex: '^(@nestjs/|@app/(bus|persistence|runtime|observability|config))' },
          ],
        },
      ],
    },
  },
  {
    // The embedded SDK runs in an application's process: none of the platform's infrastructure.
    files: ['libs/agent/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...NO_APPS,
            {
              regex:
                '^(@nestjs/|@nats-io/|@prisma/|ioredis$|@app/(bus|persistence|runtime|config|observability)$)',
              message: 'the embedded SDK ships without Nest, NATS, Prisma, Redis or the services',
            },
          ],
        },
      ],
    },
  },
  {
    // Only configuration code reads the environment.
    files: ['apps/**/*.ts', 'libs/**/*.ts'],
    ignores: ['libs/config/**', '**/*.spec.ts', 'libs/testing/**', '**/*.cli.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'read configuration through @app/config' },
      ],
    },
  },
);
