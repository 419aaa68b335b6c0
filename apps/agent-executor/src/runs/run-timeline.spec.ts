import { describe, expect, it } from 'vitest';
import type { HeldApproval, PlanDecision } from '../store/held-approval';
import type { JournalTiming } from '../store/run-journal.repository';
import { decisionsOf, timelineOf, traceWithDecisions } from './run-timeline';

const START = new Date('2026-12-04T10:00:00.000Z');
const at = (ms: number) => new Date(START.getTime() + ms);
const entry = (over: Partial<JournalTiming>): JournalTiming => ({
  kind: 'model_step',
  step: 1,
  call_index: null,
  name: null,
  status: null,
  prompt_tokens: 0,
  completion_tokens: 0,
  elapsed_ms: 0,
  created_at: START,
  executed: true,
  ...over,
});

describe("a run's waterfall from its journal", () => {
  it('places each model step and call on the run’s clock, a call from its start entry', () => {
    const spans = timelineOf(
      [
        entry({ step: 1, elapsed_ms: 400, created_at: at(500), prompt_tokens: 900, completion_tokens: 100 }),
        entry({ kind: 'tool_started', step: 1, call_index: 0, name: 'add', created_at: at(510) }),
        entry({
          kind: 'tool_call',
          step: 1,
          call_index: 0,
          name: 'add',
          status: 'success',
          elapsed_ms: 30,
          created_at: at(545),
        }),
        entry({
          step: 2,
          elapsed_ms: 200,
          created_at: at(800),
          prompt_tokens: 1000,
          cached_prompt_tokens: 900,
          completion_tokens: 20,
        }),
      ],
      START,
      { prompt_tokens: 1900, completion_tokens: 120, cost_usd: 0.01 },
    );
    expect(spans.map((s) => [s.kind, s.step, s.start_ms, s.elapsed_ms])).toEqual([
      ['model', 1, 100, 400],
      ['tool', 1, 510, 30],
      ['model', 2, 600, 200],
    ]);
    expect(spans[1]).toMatchObject({ name: 'add', index: 0, status: 'success', executed: true });
    expect(spans[2].usage).toMatchObject({ prompt_tokens: 1000, cached_prompt_tokens: 900 });
    expect(spans[0].usage).not.toHaveProperty('cached_prompt_tokens');
  });

  it('shares the run’s cost among its model steps by the price, adding up to the run’s', () => {
    const spans = timelineOf(
      [
        entry({ step: 1, prompt_tokens: 1_000_000, completion_tokens: 0 }),
        entry({ step: 2, prompt_tokens: 0, completion_tokens: 1_000_000 }),
      ],
      START,
      { prompt_tokens: 1_000_000, completion_tokens: 1_000_000, cost_usd: 5 },
      { input_per_mtok: 1, output_per_mtok: 4 },
    );
    expect(spans.map((s) => s.usage?.cost_usd)).toEqual([1, 4]);
  });

  it('shows a call sent and never answered as in flight', () => {
    const spans = timelineOf(
      [entry({ kind: 'tool_started', step: 1, call_index: 1, name: 'slow', created_at: at(50) })],
      START,
      { prompt_tokens: 0, completion_tokens: 0 },
    );
    expect(spans).toEqual([
      { kind: 'tool', step: 1, index: 1, name: 'slow', start_ms: 50, elapsed_ms: 0, status: 'in_flight' },
    ]);
  });
});

describe('the decisions on held calls and plans', () => {
  const held = (over: Partial<HeldApproval>): HeldApproval => ({
    call_id: 'run_1:1:0',
    function: 'send_message',
    arguments: {},
    hash: 'h',
    asked_at: '2026-12-04T10:00:00.000Z',
    expires_at: null,
    step: 1,
    index: 0,
    ...over,
  });

  it('says who decided what and when, oldest first; a timeout’s default as the timeout', () => {
    const decisions = decisionsOf({
      plan_decision: null,
      approvals: [
        held({
          call_id: 'run_1:2:0',
          decision: { action: 'reject', reason: 'no' },
          decided_by: 'caller',
          decider: 'bob',
          decided_at: '2026-12-04T10:05:00.000Z',
        }),
        held({
          decision: { action: 'approve', args: { to: 'ops' } },
          decided_by: 'caller',
          decider: 'alice',
          decided_at: '2026-12-04T10:01:00.000Z',
        }),
        held({
          call_id: 'run_1:3:0',
          decision: { action: 'reject' },
          decided_by: 'timeout',
          decided_at: '2026-12-04T10:09:00.000Z',
        }),
        held({ call_id: 'run_1:4:0' }),
      ],
    });
    expect(decisions).toEqual([
      expect.objectContaining({ call_id: 'run_1:1:0', action: 'approve', by: 'alice', edited: true }),
      expect.objectContaining({ call_id: 'run_1:2:0', action: 'reject', by: 'bob', reason: 'no' }),
      expect.objectContaining({ call_id: 'run_1:3:0', action: 'timeout', by: '' }),
    ]);
  });

  const plan = (over: Partial<PlanDecision>): PlanDecision => ({
    action: 'approve',
    revision: 0,
    step: 1,
    decider: 'carol',
    decider_key: 'key_c',
    asked_at: '2026-12-04T10:00:00.000Z',
    decided_at: '2026-12-04T10:02:00.000Z',
    ...over,
  });

  it('names a plan’s decision by its revision, with who decided, with which key, asked and decided when, and why', () => {
    const decisions = decisionsOf({
      plan_decision: plan({}),
      approvals: [
        held({
          call_id: 'run_1:2:0',
          step: 2,
          decision: { action: 'approve' },
          decided_by: 'caller',
          decider: 'alice',
          decider_key: 'key_a',
          decided_at: '2026-12-04T10:03:00.000Z',
        }),
      ],
    });
    expect(decisions).toEqual([
      {
        kind: 'plan',
        call_id: 'plan:0',
        function: '',
        action: 'approve',
        by: 'carol',
        key_id: 'key_c',
        at: '2026-12-04T10:02:00.000Z',
        asked_at: '2026-12-04T10:00:00.000Z',
      },
      expect.objectContaining({ kind: 'call', call_id: 'run_1:2:0', by: 'alice', key_id: 'key_a' }),
    ]);
    const rejected = decisionsOf({
      approvals: [],
      plan_decision: plan({ action: 'reject', decider_key: undefined, reason: 'not this week' }),
    });
    expect(rejected).toEqual([
      expect.objectContaining({ kind: 'plan', action: 'reject', by: 'carol', reason: 'not this week' }),
    ]);
    expect(rejected[0]).not.toHaveProperty('key_id');
  });

  it('places a plan’s decision in the trace right after the plan, before its steps', () => {
    const trace = traceWithDecisions(
      [
        { step: 1, kind: 'plan', elapsed_ms: 5 },
        { step: 2, kind: 'plan_step', elapsed_ms: 5 },
        { step: 3, kind: 'summary', elapsed_ms: 5 },
      ],
      { approvals: [], plan_decision: plan({}) },
    );
    expect(trace.map((entry) => [entry.step, entry.kind, entry.call_id])).toEqual([
      [1, 'plan', undefined],
      [1, 'approval', 'plan:0'],
      [2, 'plan_step', undefined],
      [3, 'summary', undefined],
    ]);
    expect(trace[1].decision).toMatchObject({ kind: 'plan', by: 'carol', key_id: 'key_c' });
  });
});
