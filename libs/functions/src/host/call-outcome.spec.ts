import { describe, expect, it } from 'vitest';
import { normalizeResult } from './call-outcome';

describe('a function result as returned', () => {
  it('keeps the tokens an agent called as a function spent, without its cost', () => {
    const usage = { prompt_tokens: 12, completion_tokens: 3, cost_usd: 0.1 };
    expect(normalizeResult({ data: { reply: 'hi' }, usage })).toEqual({
      data: { reply: 'hi' },
      usage: { prompt_tokens: 12, completion_tokens: 3 },
    });
  });

  it('takes an object whose usage is not token counts as plain data', () => {
    expect(normalizeResult({ usage: 'high' })).toEqual({ data: { usage: 'high' } });
    expect(normalizeResult({ usage: { prompt_tokens: -1, completion_tokens: 0 } })).toEqual({
      data: { usage: { prompt_tokens: -1, completion_tokens: 0 } },
    });
  });
});
