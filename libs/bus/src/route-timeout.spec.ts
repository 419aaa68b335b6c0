import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type AgentRunReply, route, Routes, RunRefRequest, RunView } from '@app/contracts';
import type { Bus } from './bus';
import { timeoutOf } from './route-timeout';

const timed = route('test.timed', RunRefRequest, RunView, { timeoutMs: 5_000 });

describe('timeoutOf', () => {
  beforeEach(() => vi.useFakeTimers({ now: 1_000_000 }));
  afterEach(() => vi.useRealTimers());

  it("takes the route's timeout, or the caller's instead", () => {
    expect(timeoutOf(timed)).toBe(5_000);
    expect(timeoutOf(timed, { timeoutMs: 60_000 })).toBe(60_000);
  });

  it("waits no longer than the caller's deadline, and at least a millisecond past it", () => {
    expect(timeoutOf(timed, { deadline: 1_000_000 + 300 })).toBe(300);
    expect(timeoutOf(timed, { deadline: 1_000_000 + 60_000 })).toBe(5_000);
    expect(timeoutOf(timed, { deadline: 1_000_000 - 10 })).toBe(1);
  });

  it('refuses a request on a route without a timeout when the caller gives no deadline', () => {
    expect(() => timeoutOf(Routes.agentRun)).toThrow(/'agent.run' needs a deadline/);
    expect(timeoutOf(Routes.agentRun, { timeoutMs: 90_000 })).toBe(90_000);
  });
});

/**
 * Checked by the compiler (`tsc`), never run: what a route lets a caller and a handler write.
 * An `@ts-expect-error` that stops being an error fails the type-check.
 */
function _routeTyping(bus: Bus): void {
  const view: Promise<RunView> = bus.request(Routes.agentRunGet, { run_id: 'run_1' });
  const reply: Promise<AgentRunReply> = bus.request(Routes.agentRun, { message: 'hi' }, { timeoutMs: 1 });
  void bus.request(Routes.agentProfileList);
  // @ts-expect-error a route with a body needs one
  void bus.request(Routes.agentRunGet);
  // @ts-expect-error the body is the route's request type
  void bus.request(Routes.agentRunGet, { session_id: 's' });
  // @ts-expect-error a route without a timeout needs the caller's deadline
  void bus.request(Routes.agentRun, { message: 'hi' });
  // @ts-expect-error the reply is the route's reply type
  const wrong: Promise<string> = bus.request(Routes.agentRunGet, { run_id: 'run_1' });
  bus.serve(Routes.agentRunGet, (request) => bus.request(Routes.agentRunGet, { run_id: request.run_id }));
  // @ts-expect-error a handler answers with the route's reply type
  bus.serve(Routes.agentRunGet, () => 'not a run');
  void [view, reply, wrong];
}
