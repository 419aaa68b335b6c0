import { loadavg } from 'node:os';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { it } from 'vitest';
import { AgentRunRequest, ChatRequest, FnExecRequest, FunctionCallBatch, parseDto } from '@app/contracts';

// What validating one request costs where it is served: parseDto (ajv where the DTO's schema is
// as strict as its rules) against the class-validator path it replaced, in alternating rounds.
// Inputs as the deployed chat turn sends them.

const CALLS = 20_000;
const ROUNDS = 7;
const scopes = ['chat', 'functions:invoke'];
const caller = {
  agent: 'default',
  run_id: 'run_abc',
  session_id: 'ses_abc',
  principal: 'key_1',
  kind: 'agent',
  scopes,
};

const CASES: [string, new () => object, object][] = [
  ['gateway: POST /v1/chat body (ChatRequest)', ChatRequest, { message: 'Add 2 and 3', agent: 'default' }],
  [
    'executor: agent.run (AgentRunRequest)',
    AgentRunRequest,
    {
      message: 'Add 2 and 3',
      run_id: 'run_abc',
      agent: 'default',
      principal: 'key_1',
      scopes,
      stream: false,
    },
  ],
  [
    'runner: fn.exec (FnExecRequest)',
    FnExecRequest,
    {
      params: { a: 2, b: 3 },
      deadline_ms: Date.now() + 30_000,
      timeout_ms: 30_000,
      caller,
      allowed_tools: ['add'],
      call_id: 'call_abc_1',
      idempotency_key: 'run_abc:1:0',
    },
  ],
  [
    'executor: fn.calls.record, one call (FunctionCallBatch)',
    FunctionCallBatch,
    {
      calls: [
        {
          id: 'call_abc_1',
          name: 'add',
          provider: 'custom',
          instance: 'runner-1',
          caller,
          status: 'success',
          elapsed_ms: 1,
          params_summary: '{"a":2,"b":3}',
          finished_at: Date.now(),
        },
      ],
    },
  ],
];

/** The path parseDto took before: an instance by class-transformer, checked by class-validator. */
function classValidator(cls: new () => object, input: object): object {
  const instance = plainToInstance(cls, input, { enableImplicitConversion: false });
  if (validateSync(instance, { whitelist: true, forbidNonWhitelisted: true }).length)
    throw new Error('refused');
  return instance;
}

function usPerCall(parse: () => unknown): number {
  const start = process.hrtime.bigint();
  for (let i = 0; i < CALLS; i++) parse();
  return Number(process.hrtime.bigint() - start) / 1_000 / CALLS;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

it('measures request validation', () => {
  const rows = CASES.map(([label, cls, input]) => {
    const [before, after]: number[][] = [[], []];
    for (let round = 0; round < ROUNDS; round++) {
      before.push(usPerCall(() => classValidator(cls, input)));
      after.push(usPerCall(() => parseDto(cls, input)));
    }
    const [b, a] = [median(before), median(after)];
    return `| ${label} | ${b.toFixed(1)} | ${a.toFixed(2)} | ×${(b / a).toFixed(0)} |`;
  });
  console.log(
    [
      `µs a request, median of ${ROUNDS} alternating rounds of ${CALLS} (load ${loadavg()[0].toFixed(1)}):`,
      '| request | class-validator | parseDto (ajv) | ratio |',
      '| --- | ---: | ---: | ---: |',
      ...rows,
    ].join('\n'),
  );
});
