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

// NATS is spoken by libs/bus alone: everything else asks the bus, so one place owns connections,
// reconnects, codecs and the subjects' permissions.
const NO_NATS = {
  regex: '^@nats-io/',
  message: 'only libs/bus speaks NATS: use @app/bus (it re-exports the types a caller needs)',
};

// What the embedded SDK ships (libs/agent, libs/llm) imports the run engine's portable entry: the
// whole library loads a turn's machinery with it, which an agent loads at its first turn instead.
const NO_WHOLE_AGENT_CORE = {
  regex: '^@app/agent-core$',
  message:
    'the embedded SDK imports @app/agent-core/portable: the whole library loads every strategy and tool up front',
};

// Names of libs/contracts that the run engine has its own type for: the core reads its own words,
// and a host translates the wire's at its edge.
const WIRE_NAMES_WITH_CORE_TYPES = [
  ['HistoryMessage', 'ChatMessage'],
  ['ToolDecision', "ApprovalDecision (approval-gate) or the hooks' ToolDecision (ports)"],
  ['ClientPlan', 'PlannedStep'],
  ['ClientPlanStep', 'PlannedStep'],
  ['FnExecRequest', 'FunctionCallRequest'],
  ['FnExecReply', 'FunctionCallOutcome'],
  ['AgentProfileSpec', 'AgentDefinition'],
  ['AgentProfileView', 'AgentDefinition'],
  ['RunView', 'AgentResult or RunState'],
  ['RunSummary', 'AgentResult or RunState'],
  ['RoutingDecision', 'RoutingVerdict'],
  ['OpenAiChatMessage', 'ChatMessage'],
  ['OpenAiToolCall', 'NativeToolCall'],
  ['OpenAiUsage', 'TokenUsage'],
];
const CORE_TYPES_FIRST = WIRE_NAMES_WITH_CORE_TYPES.map(([name, core]) => ({
  name: '@app/contracts',
  importNames: [name],
  message: `the run engine has its own type: ${core}`,
}));

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
      'no-restricted-imports': ['error', { patterns: [...NO_APPS, NO_NATS] }],
    },
  },
  {
    files: ['libs/bus/**/*.ts'],
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
          paths: CORE_TYPES_FIRST,
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
            NO_NATS,
            { regex: '^(@nestjs/|@app/(bus|persistence|runtime|observability|config))' },
            NO_WHOLE_AGENT_CORE,
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
            {
              regex: '^@app/(contracts|functions)$',
              message:
                'the embedded SDK imports @app/contracts/portable and @app/functions/portable: the whole libraries load class-validator and the bus',
            },
            NO_WHOLE_AGENT_CORE,
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
  {
    // Every tier's files share their worker (vitest.config.mts: isolate false): an environment
    // variable set, a module mocked or a global stubbed by one file would reach the files after it.
    files: ['**/*.spec.ts', '**/*.cases.ts', 'test/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "AssignmentExpression > MemberExpression.left > MemberExpression.object[object.name='process'][property.name='env']",
          message: 'test files share their worker: pass a service its environment (startService env), never set process.env',
        },
        {
          selector: "UnaryExpression[operator='delete'] > MemberExpression > MemberExpression.object[object.name='process'][property.name='env']",
          message: 'test files share their worker: never change process.env',
        },
        {
          selector: "CallExpression[callee.object.name='vi'][callee.property.name=/^(mock|doMock|stubEnv|stubGlobal)$/]",
          message: 'test files share their worker: a mocked module or stubbed global would reach the files after this one; use a small fake of the port',
        },
      ],
    },
  },
  {
    // A file holds one concern and a function one step of it: past these, look for the second one hiding in it.
    files: ['**/*.ts', '**/*.tsx'],
    rules: {
      'max-lines': ['error', { max: 300 }],
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    // A spec's describe block is a list of cases, and a benchmark's a list of measurements. A spec
    // file shares one stack (its servers, a browser) across its cases: splitting one only to fit
    // 300 lines would start that stack twice, so a spec may run to 450. A `*.cases.ts` file is a
    // spec's describe block that another spec runs (test/cluster: two clusters, one file).
    files: ['**/*.spec.ts', '**/*.spec.tsx', '**/*.cases.ts', '**/*.bench-run.ts'],
    rules: { 'max-lines-per-function': 'off', 'max-lines': ['error', { max: 450 }] },
  },
  {
    // A commander builder declares its commands in one chain, and a view's component its markup top
    // to bottom: cutting either into functions would only scatter what reads as one piece.
    files: ['apps/cli/src/commands/*.commands.ts', 'apps/console/src/**/*.tsx'],
    rules: { 'max-lines-per-function': 'off' },
  },
  {
    // A benchmark drives an app from outside (its processes, its bus, its HTTP API) or through the
    // app's testing kit (apps/<app>/src/testing/), never its internals: those move.
    files: ['bench/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+apps/[^/]+/src/(?!testing/)',
              message: 'a benchmark reaches an app only through its testing kit (apps/<app>/src/testing/)',
            },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: String.raw`Literal[value=/^(dist\/)?apps\/[^/]+\/src\/(?!testing\/|main\.js$)/]`,
          message:
            "a benchmark loads an app's build only as its main or its testing kit (apps/<app>/src/testing/)",
        },
      ],
    },
  },
);
