import { describe, expect, it } from 'vitest';
import type { PendingApproval } from '@app/client';
import { chooseHeldCall, decideHint } from './held-call-choice';

const held = (call_id: string): PendingApproval => ({
  call_id,
  function: 'add',
  arguments: { a: 1 },
  hash: 'a'.repeat(64),
  asked_at: '2026-11-26T10:00:00.000Z',
  expires_at: null,
});
const one = [held('run_1:1:0')];
const two = [held('run_1:1:0'), held('run_1:1:1')];

describe('the held call a REPL decision names', () => {
  it('is the only one held, the words being the reason, or the one named by call id', () => {
    expect(chooseHeldCall(one, ['too', 'much'])).toEqual({ call: one[0], rest: ['too', 'much'] });
    expect(chooseHeldCall(one, [])).toEqual({ call: one[0], rest: [] });
    expect(chooseHeldCall(two, ['run_1:1:1', 'not', 'this'])).toEqual({
      call: two[1],
      rest: ['not', 'this'],
    });
  });

  it('is named by the ending of its id too, <step>:<index>', () => {
    expect(chooseHeldCall(two, ['1:1', 'not', 'this'])).toEqual({ call: two[1], rest: ['not', 'this'] });
    expect(chooseHeldCall(two, ['9:9'])).toEqual({
      problem: '2 calls wait: name one of run_1:1:0, run_1:1:1',
    });
  });

  it('must be named when several wait, and the hint says so', () => {
    expect(chooseHeldCall(two, ['too', 'much'])).toEqual({
      problem: '2 calls wait: name one of run_1:1:0, run_1:1:1',
    });
    expect(decideHint(one)).toBe('/approve runs it, /reject [reason…] refuses it');
    expect(decideHint(two)).toContain('/approve <call_id>');
  });
});
