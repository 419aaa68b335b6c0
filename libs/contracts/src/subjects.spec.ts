import { describe, expect, it } from 'vitest';
import { Subjects } from '@app/contracts';

describe('Subjects', () => {
  it('builds a function subject from its name', () => {
    expect(Subjects.fnExec('send_message')).toBe('fn.exec.send_message');
  });
});
