import { describe, expect, it } from 'vitest';
import type { ApprovalDecisionView, RunView } from '@app/client';
import { decisionText, markersOf } from './timeline';

const planDecision: ApprovalDecisionView = {
  kind: 'plan',
  call_id: 'plan:0',
  function: '',
  action: 'reject',
  by: 'carol',
  key_id: 'key_c',
  at: '2026-12-05T10:00:02.000Z',
  asked_at: '2026-12-05T10:00:01.000Z',
};
const callDecision: ApprovalDecisionView = {
  kind: 'call',
  call_id: 'run_1:3:0',
  function: 'transfer',
  action: 'approve',
  by: 'alice',
  key_id: 'key_a',
  at: '2026-12-05T10:00:05.000Z',
  asked_at: '2026-12-05T10:00:04.000Z',
};

describe('the decisions on a run, as the Runs view words and places them', () => {
  it('names the plan, or the held call’s function, with who decided and with which key', () => {
    expect(decisionText(planDecision)).toBe('carol (key key_c) rejected the plan');
    expect(decisionText({ ...planDecision, action: 'approve', by: '', key_id: undefined })).toBe(
      'Someone (no authentication) approved the plan',
    );
    expect(decisionText(callDecision)).toBe('alice (key key_a) approved transfer');
  });

  it('marks a plan’s decision at the plan’s step (from the trace), a call’s at its call’s step', () => {
    const run: Pick<RunView, 'trace' | 'decisions' | 'created_at'> = {
      created_at: '2026-12-05T10:00:00.000Z',
      decisions: [planDecision, callDecision],
      trace: [
        { step: 2, kind: 'plan', elapsed_ms: 5 },
        { step: 2, kind: 'approval', call_id: 'plan:0', decision: planDecision, elapsed_ms: 0 },
      ],
    };
    expect(markersOf(run).map(({ kind, step, at_ms }) => ({ kind, step, at_ms }))).toEqual([
      { kind: 'approval', step: 2, at_ms: 2_000 },
      { kind: 'approval', step: 3, at_ms: 5_000 },
    ]);
  });
});
