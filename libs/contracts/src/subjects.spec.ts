import { describe, expect, it } from 'vitest';
import { Subjects } from '@app/contracts';

describe('Subjects', () => {
  it('builds a function subject from its name', () => {
    expect(Subjects.fnExec('send_message')).toBe('fn.exec.send_message');
  });

  it("addresses a run's executor by its instance id as one subject token, dots and all", () => {
    expect(Subjects.agentRunInterrupt('node-1.example.com-42-1a2b3c4d')).toBe(
      'agent.interrupt.node-1_example_com-42-1a2b3c4d',
    );
    expect(Subjects.agentRunInbox('exec-42-1a2b3c4d')).toBe('agent.inbox.exec-42-1a2b3c4d');
  });
});
