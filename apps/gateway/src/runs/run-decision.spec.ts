import { describe, expect, it } from 'vitest';
import { InvalidParamsError } from '@app/contracts';
import { approvalOf, rejectionOf } from './run-decision';

const HASH = 'f'.repeat(64);

describe('a decision body', () => {
  it('without a hash decides a held plan, as before', () => {
    expect(approvalOf({})).toBeUndefined();
    expect(rejectionOf({})).toBeUndefined();
    // a plan's rejection may say why: recorded with its decision
    expect(rejectionOf({ reason: 'not today' })).toBeUndefined();
  });

  it('names the held call by hash: approve, edit, respond, reject', () => {
    expect(approvalOf({ hash: HASH })).toEqual({ action: 'approve', hash: HASH });
    expect(approvalOf({ hash: HASH, call_id: 'run_1:1:0', edit: { arguments: { a: 1 } } })).toEqual({
      action: 'approve',
      hash: HASH,
      call_id: 'run_1:1:0',
      arguments: { a: 1 },
    });
    expect(approvalOf({ hash: HASH, respond: { result: 'done by hand' } })).toEqual({
      action: 'respond',
      hash: HASH,
      result: 'done by hand',
    });
    expect(rejectionOf({ hash: HASH, reason: 'no' })).toEqual({ action: 'reject', hash: HASH, reason: 'no' });
  });

  it('refuses a call named without its hash, and edit with respond', () => {
    expect(() => approvalOf({ call_id: 'run_1:1:0' })).toThrow(InvalidParamsError);
    expect(() => rejectionOf({ call_id: 'run_1:1:0', reason: 'no' })).toThrow(InvalidParamsError);
    expect(() => approvalOf({ hash: HASH, edit: { arguments: {} }, respond: { result: 1 } })).toThrow(
      InvalidParamsError,
    );
  });
});
