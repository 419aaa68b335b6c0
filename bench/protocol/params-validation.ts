import { type FunctionParameters, validateParams } from '../../libs/protocol/src/index';

// The cost of checking one call's parameters with the one validator (ajv, compiled once per
// schema). Run from the repo root:
//   node_modules/.bin/node --import ./bench/protocol/ts-resolve.mjs bench/protocol/params-validation.ts

const SCHEMA: FunctionParameters = {
  type: 'object',
  properties: {
    to: { type: 'string', description: 'recipient' },
    message: { type: 'string', description: 'text' },
    channel: { type: 'string', default: 'console', enum: ['console', 'email', 'sms', 'wechat'] },
    priority: { type: 'integer', minimum: 1, maximum: 5 },
    tags: { type: 'array', items: { type: 'string' } },
  },
  required: ['to', 'message'],
};

const CASES: Record<string, unknown> = {
  valid: { to: 'ops', message: 'stand-up in 5 minutes', priority: 2, tags: ['daily'] },
  invalid: { message: 3, channel: 'fax', priority: 9, extra: true },
};

const ROUNDS = 5;
const CALLS = 200_000;

function nsPerCall(input: unknown): number {
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < ROUNDS; round++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < CALLS; i++) validateParams(SCHEMA, input);
    best = Math.min(best, Number(process.hrtime.bigint() - start) / CALLS);
  }
  return best;
}

for (const [name, input] of Object.entries(CASES))
  console.log(`${name}: ${(nsPerCall(input) / 1000).toFixed(2)} µs a call (best of ${ROUNDS} × ${CALLS})`);
