import { describe, expect, it } from 'vitest';
import type { RunView } from '@app/contracts';
import { hasAnswered, replyFromRun } from './stored-run-reply';

const run = (over: Partial<RunView>): RunView => ({
  id: 'run_1',
  session_id: 'ses_1',
  agent: 'helper',
  mode: 'react',
  status: 'completed',
  input: 'What is 1 + 2?',
  reply: 'It is 3.',
  finish_reason: 'final',
  error: null,
  plan: null,
  trace: [],
  used_tools: {},
  usage: { prompt_tokens: 10, completion_tokens: 4 },
  total_ms: 12,
  created_at: '2026-11-24T09:00:00.000Z',
  finished_at: '2026-11-24T09:00:01.000Z',
  trace_id: null,
  trace_url: null,
  takeovers: 0,
  parent_run_id: null,
  ...over,
});

describe('the reply of a stored run', () => {
  it('has answered once ended or paused for its caller, not while running', () => {
    expect(hasAnswered(run({}))).toBe(true);
    expect(hasAnswered(run({ status: 'awaiting_approval', finish_reason: 'awaiting_approval' }))).toBe(true);
    expect(hasAnswered(run({ status: 'running', finish_reason: null }))).toBe(false);
  });

  it('carries the reply, the function calls of the trace, the finish reason and the usage', () => {
    const reply = replyFromRun(
      run({
        trace: [
          {
            step: 1,
            kind: 'action',
            action: { tool: 'add', args: { a: 1, b: 2 } },
            observation: '<result name="add" status="success">\n  <message>3</message>\n</result>',
            elapsed_ms: 2,
          },
          {
            step: 1,
            kind: 'action',
            action: { tool: 'cut', args: {} },
            observation: '<result name="cu',
            elapsed_ms: 1,
          },
          { step: 1, kind: 'action', action: { tool: 'fail', args: {} }, error: 'boom', elapsed_ms: 1 },
          { step: 2, kind: 'final', elapsed_ms: 3 },
        ],
      }),
    );
    expect(reply).toEqual({
      session_id: 'ses_1',
      run_id: 'run_1',
      reply: 'It is 3.',
      function_calls: [
        { name: 'add', status: 'success', result: { message: '3' } },
        { name: 'cut', status: 'success', result: '<result name="cu' },
        { name: 'fail', status: 'error', result: 'boom' },
      ],
      finish_reason: 'final',
      usage: { prompt_tokens: 10, completion_tokens: 4 },
    });
  });

  it('says a run that failed to be served as an error, and names the client calls a paused run waits for', () => {
    expect(
      replyFromRun(run({ status: 'failed', finish_reason: 'error', error: 'llm_unreachable' })).error,
    ).toEqual({
      code: 'upstream_error',
      message: 'llm_unreachable',
    });
    const paused = replyFromRun(
      run({
        status: 'awaiting_tool_results',
        finish_reason: 'client_tool_calls',
        trace: [
          {
            step: 1,
            kind: 'client_tool_call',
            call_id: 'c1',
            action: { tool: 'look', args: { q: 1 } },
            elapsed_ms: 0,
          },
        ],
      }),
    );
    expect(paused.client_tool_calls).toEqual([{ id: 'c1', name: 'look', arguments: { q: 1 } }]);
  });
});
