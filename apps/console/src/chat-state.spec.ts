import { describe, expect, it } from 'vitest';
import type { AgentRunReply, ChatEvent, PendingApproval } from '@app/client';
import { awaitingPlanApproval, failTurn, heldCalls, reduceTurn, resumeTurn, startTurn } from './chat-state';

const usage = { prompt_tokens: 10, completion_tokens: 5 };
const fold = (events: ChatEvent[], from = startTurn('add 2 and 3')) => events.reduce(reduceTurn, from);

const heldCall = (index: number, args: Record<string, unknown>): PendingApproval => ({
  call_id: `r3:1:${index}`,
  function: 'add',
  arguments: args,
  hash: String(index).repeat(64),
  asked_at: '2026-11-26T10:00:00.000Z',
  expires_at: null,
});
const first = heldCall(0, { a: 2, b: 3 });
const second = heldCall(1, { a: 4, b: 4 });
const runEnd = (reply: Partial<AgentRunReply>): ChatEvent => ({
  type: 'run_end',
  data: {
    run_id: 'r3',
    session_id: 's1',
    reply: '',
    function_calls: [],
    finish_reason: 'final',
    usage,
    ...reply,
  },
});
const waiting = (approvals?: PendingApproval[]) =>
  runEnd({
    reply: 'Waiting for approval of add.',
    finish_reason: 'awaiting_approval',
    ...(approvals ? { approvals } : {}),
  });

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
    expect(awaitingPlanApproval(turn)).toBe(true);
    expect(heldCalls(turn)).toEqual([]);
    turn = reduceTurn(
      { ...turn, running: true },
      { type: 'step', data: { ...steps[0], status: 'completed', result: 3 } },
    );
    expect(turn.plan?.steps[0]).toMatchObject({ status: 'completed', result: 3 });
    expect(awaitingPlanApproval(turn)).toBe(false);
  });

  it('gathers the held calls of approval_required and offers them once the run stops for them', () => {
    const streaming = fold([
      {
        type: 'run_start',
        data: { run_id: 'r3', session_id: 's1', agent: 'g', mode: 'react', protocol: 'xml' },
      },
      { type: 'approval_required', data: { run_id: 'r3', ...first } },
      { type: 'approval_required', data: { run_id: 'r3', ...second } },
    ]);
    expect(streaming.held.map((c) => c.call_id)).toEqual(['r3:1:0', 'r3:1:1']);
    expect(heldCalls(streaming)).toEqual([]);

    const stopped = reduceTurn(streaming, waiting());
    expect(heldCalls(stopped)).toMatchObject([
      { call_id: 'r3:1:0', function: 'add', arguments: { a: 2, b: 3 }, hash: first.hash },
      { call_id: 'r3:1:1', arguments: { a: 4, b: 4 } },
    ]);
    expect(awaitingPlanApproval(stopped)).toBe(false);
    expect(awaitingPlanApproval({ ...stopped, plan: { steps: [], revision: 0 } })).toBe(false);
  });

  it('after a decision shows the calls left, then none once the run goes on to its end', () => {
    const stopped = fold([waiting([first, second])]);
    const deciding = resumeTurn(stopped);
    expect(deciding).toMatchObject({ running: true, answer: '', held: [first, second] });
    expect(heldCalls(deciding)).toEqual([]);

    const oneLeft = reduceTurn(deciding, waiting([second]));
    expect(heldCalls(oneLeft)).toEqual([second]);

    const done = fold(
      [{ type: 'delta', data: { step: 2, text: 'Five' } }, runEnd({ reply: 'Five.' })],
      resumeTurn(oneLeft),
    );
    expect(done).toMatchObject({ answer: 'Five.', finish_reason: 'final', held: [] });
    expect(heldCalls(done)).toEqual([]);
  });

  it('offers the held calls again when a decision fails, with its error', () => {
    const error = { code: 'conflict', message: 'the hash is not the held call’s' } as const;
    const stopped = fold([waiting([first])]);
    const failed = failTurn(resumeTurn({ ...stopped, error }), error);
    expect(heldCalls(failed)).toEqual([first]);
    expect(resumeTurn(failed).error).toBeUndefined();
  });

  it('keeps the API’s error from an error event or a refused request', () => {
    const error = { code: 'forbidden', message: "this API key lacks the 'chat' scope" } as const;
    expect(fold([{ type: 'error', data: { error } }])).toMatchObject({ running: false, error });
    expect(failTurn(startTurn('hi'), error)).toMatchObject({ running: false, error });
  });

  it('shows a message added to the running run and a takeover, in order', () => {
    const turn = fold([
      { type: 'user_message', data: { step: 2, text: 'use metric units' } },
      { type: 'run_resumed', data: { run_id: 'run_1', takeovers: 1, step: 3 } },
    ]);
    expect(turn.items).toEqual([
      { kind: 'note', text: 'Message added at step 2: use metric units' },
      { kind: 'note', text: 'Resumed on another executor at step 3' },
    ]);
  });
});
