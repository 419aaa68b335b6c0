import { describe, expect, it } from 'vitest';
import type { ChatEvent } from '@app/client';
import { awaitingApproval, failTurn, reduceTurn, startTurn } from './chat-state';

const usage = { prompt_tokens: 10, completion_tokens: 5 };
const fold = (events: ChatEvent[]) => events.reduce(reduceTurn, startTurn('add 2 and 3'));

describe('the chat view’s event reducer', () => {
  it('pairs each tool call with its result, keeps thoughts in order and joins the deltas', () => {
    const turn = fold([
      {
        type: 'run_start',
        data: { run_id: 'r1', session_id: 's1', agent: 'a', mode: 'react', protocol: 'xml' },
      },
      { type: 'thought', data: { step: 1, text: 'I add them' } },
      { type: 'tool_call', data: { step: 1, index: 0, name: 'add', args: { a: 2, b: 3 } } },
      { type: 'tool_call', data: { step: 1, index: 1, name: 'add', args: { a: 1, b: 1 } } },
      {
        type: 'tool_result',
        data: { step: 1, index: 1, name: 'add', status: 'success', result: 2, elapsed_ms: 3 },
      },
      {
        type: 'tool_result',
        data: { step: 1, index: 0, name: 'add', status: 'success', result: 5, elapsed_ms: 4 },
      },
      { type: 'delta', data: { step: 2, text: 'It is ' } },
      { type: 'delta', data: { step: 2, text: '5.' } },
    ]);
    expect(turn.running).toBe(true);
    expect(turn.run_id).toBe('r1');
    expect(turn.answer).toBe('It is 5.');
    expect(turn.items).toEqual([
      { kind: 'thought', step: 1, text: 'I add them' },
      {
        kind: 'tool',
        step: 1,
        index: 0,
        name: 'add',
        args: { a: 2, b: 3 },
        status: 'success',
        result: 5,
        error: undefined,
        elapsed_ms: 4,
      },
      {
        kind: 'tool',
        step: 1,
        index: 1,
        name: 'add',
        args: { a: 1, b: 1 },
        status: 'success',
        result: 2,
        error: undefined,
        elapsed_ms: 3,
      },
    ]);
  });

  it('ends with the reply, finish reason and usage of run_end, and does not mutate the turn it folds', () => {
    const before = fold([{ type: 'delta', data: { step: 1, text: 'partial' } }]);
    const after = reduceTurn(before, {
      type: 'run_end',
      data: {
        run_id: 'r1',
        session_id: 's1',
        reply: 'whole',
        function_calls: [],
        finish_reason: 'final',
        usage,
      },
    });
    expect(before).toMatchObject({ answer: 'partial', running: true });
    expect(after).toMatchObject({ answer: 'whole', running: false, finish_reason: 'final', usage });
  });

  it('shows a held plan, updates its steps and waits for approval', () => {
    const steps = [
      { index: 0, description: 'add', tool: 'add', params: { a: 1, b: 2 }, status: 'pending' as const },
    ];
    let turn = fold([
      {
        type: 'run_start',
        data: { run_id: 'r2', session_id: 's1', agent: 'p', mode: 'plan', protocol: 'xml' },
      },
      { type: 'plan', data: { steps, revision: 0 } },
      {
        type: 'run_end',
        data: {
          run_id: 'r2',
          session_id: 's1',
          reply: '',
          function_calls: [],
          finish_reason: 'awaiting_approval',
          usage,
        },
      },
    ]);
    expect(awaitingApproval(turn)).toBe(true);
    turn = reduceTurn(
      { ...turn, running: true },
      { type: 'step', data: { ...steps[0], status: 'completed', result: 3 } },
    );
    expect(turn.plan?.steps[0]).toMatchObject({ status: 'completed', result: 3 });
    expect(awaitingApproval(turn)).toBe(false);
  });

  it('keeps the API’s error from an error event or a refused request', () => {
    const error = { code: 'forbidden', message: "this API key lacks the 'chat' scope" } as const;
    expect(fold([{ type: 'error', data: { error } }])).toMatchObject({ running: false, error });
    expect(failTurn(startTurn('hi'), error)).toMatchObject({ running: false, error });
  });
});
