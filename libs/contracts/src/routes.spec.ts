import { describe, expect, it } from 'vitest';
import {
  AgentProfileCreateRequest,
  InvalidParamsError,
  NO_BODY,
  replyOf,
  route,
  type Route,
  Routes,
  Subjects,
} from '@app/contracts';

type Entry = [name: string, route: Route];

/** Every route of the table; a family of subjects (`fn.exec.<name>`) is taken with one name. */
function entries(): Entry[] {
  return Object.entries(Routes).map(([name, value]) => [
    name,
    typeof value === 'function' ? (value as (arg: string) => Route)('x') : value,
  ]);
}

function errorOf(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  return undefined;
}

describe('Routes', () => {
  it('pairs each route with the subject of the same name', () => {
    for (const [name, r] of entries()) {
      const subject = Subjects[name as keyof typeof Subjects];
      expect(typeof subject === 'function' ? subject('x' as never) : subject, name).toBe(r.subject);
    }
  });

  it('parses a request as its DTO class says and refuses a bad one, by the name the route gives it', () => {
    const parsed = Routes.agentRunGet.parse({ run_id: 'run_1', principal: 'alice' });
    expect(parsed).toStrictEqual({ run_id: 'run_1', principal: 'alice' });

    const bad = errorOf(() => Routes.agentRunGet.parse({ run_id: 5, extra: true }));
    expect(bad).toBeInstanceOf(InvalidParamsError);
    expect((bad as InvalidParamsError).message).toMatch(/^invalid request/);
    expect(new Set((bad as InvalidParamsError).fields.map((f) => f.field))).toEqual(
      new Set(['extra', 'run_id']),
    );

    expect(errorOf(() => Routes.agentProfileCreate.parse({ profile: { name: 5 } }))).toMatchObject({
      message: expect.stringMatching(/^invalid agent profile/),
    });
    expect(errorOf(() => Routes.fnExec('echo').parse({ params: 'x' }))).toMatchObject({
      message: expect.stringMatching(/^invalid function call/),
    });
  });

  it('gives a handler of a route without a body nothing, whatever was sent', () => {
    expect(Routes.agentProfileList.parse({ anything: 1 })).toBeUndefined();
    expect(Routes.servicePing('scheduler').parse(undefined)).toBeUndefined();
  });

  it('leaves the deadline to the caller only where the work has a limit of its own (a run, a call)', () => {
    const untimed = entries()
      .filter(([, r]) => r.timeoutMs === undefined)
      .map(([name]) => name);
    expect(untimed.sort()).toEqual(['agentRun', 'agentRunApprove', 'agentRunFork', 'fnExec', 'fnInvoke']);
  });

  it('never sends a change twice: only lookups are retried after a lost connection', () => {
    const changes =
      /Create$|Update$|Cancel$|Delete$|Approve$|Reject$|Fork$|Interrupt$|^agentRun$|^fnExec$|^fnInvoke$|Record$/;
    for (const [name, r] of entries()) if (changes.test(name)) expect(r.read, name).toBe(false);
    expect(Routes.agentRunGet.read).toBe(true);
    expect(Routes.schedulerCronList.read).toBe(true);
  });

  it('declares a route with its options, and defaults to traced, not a read, no queue group', () => {
    const r = route('test.route', AgentProfileCreateRequest, replyOf<{ ok: true }>(), { timeoutMs: 10 });
    expect(r).toMatchObject({ subject: 'test.route', timeoutMs: 10, read: false, traced: true });
    expect(r.queue).toBeUndefined();
    const bare = route('test.bare', NO_BODY, replyOf<number>(), { timeoutMs: 1, traced: false, queue: 'q' });
    expect(bare).toMatchObject({ traced: false, queue: 'q' });
  });
});
