import { describe, expect, expectTypeOf, it } from 'vitest';
import { type AgentEvent, Events, type FnCancel, type RunResumedEvent, Subjects } from '@app/contracts';
import type { Bus } from './bus';

describe('Events', () => {
  it('pairs each event with its subject', () => {
    expect(Events.agentEvents('run_1').subject).toBe(Subjects.agentEvents('run_1'));
    expect(Events.agentRunResumed.subject).toBe(Subjects.agentRunResumed);
    expect(Events.fnAnnounce.subject).toBe(Subjects.fnAnnounce);
    expect(Events.fnCancel.subject).toBe(Subjects.fnCancel);
    expect(Events.fnCallsRecorded.subject).toBe(Subjects.fnCallsRecord);
  });

  it('types what the bus publishes and what a subscriber is handed', () => {
    const publish = (bus: Bus) => {
      bus.publish(Events.fnCancel, { call_id: 'call_1' });
      // @ts-expect-error a cancel names its call
      bus.publish(Events.fnCancel, { run_id: 'run_1' });
      bus.subscribe(Events.agentRunResumed, (event) => expectTypeOf(event).toEqualTypeOf<RunResumedEvent>());
      bus.subscribe(Events.agentEvents('run_1'), (event) => expectTypeOf(event).toEqualTypeOf<AgentEvent>());
      bus.subscribe(Events.fnCancel, (event) => expectTypeOf(event).toEqualTypeOf<FnCancel>());
    };
    expect(publish).toBeTypeOf('function');
  });
});
