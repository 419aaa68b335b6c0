import { describe, expect, it } from 'vitest';
import { defineAgent } from './agent-definition';
import { HookFailed } from './errors';
import type { RunJournal } from './ports';
import { answered } from './run-outcome';
import { frameRun } from './run-frame';
import { RunState } from './run-state';
import { finalAnswer, harness } from './testing/fixtures.fixture';

function newRun(): RunState {
  return new RunState({ runId: 'run_1', sessionId: '' }, defineAgent({ name: 'test' }), {
    timeoutMs: 10_000,
  });
}

/** A store that keeps only how each run ended. */
function endings(ends: string[]): RunJournal {
  return {
    modelStepCompleted: () => undefined,
    toolCallCompleted: () => undefined,
    planChanged: () => undefined,
    runEnded: (_run, outcome) => void ends.push(outcome.finishReason),
  };
}

describe('the run frame', () => {
  it('a failing onTurnEnd hook ends the run with an error naming it; agent.run() does not reject', async () => {
    const onTurnEnd = () => {
      throw new HookFailed('audit hook unreachable');
    };
    const { agent } = harness([finalAnswer('done')], {}, { hooks: { onTurnEnd } });

    const result = await agent.run('hello');

    expect(result.finish_reason).toBe('error');
    expect(result.phase).toBe('failed');
    expect(result.reply).toContain('hook_failed: audit hook unreachable');
  });

  it('the ending it journals is the one the hooks left', async () => {
    const ends: string[] = [];
    const store = endings(ends);
    const run = newRun();
    const hooks = {
      onTurnEnd: () => {
        throw new HookFailed('no');
      },
    };

    const outcome = await frameRun(run, { hooks, journal: store, work: async () => answered('hi') });

    expect(outcome.finishReason).toBe('error');
    expect(ends).toEqual(['error']);
  });

  it('a run handed over meanwhile: its journal closed, the hooks not told, the host error thrown', async () => {
    const ends: string[] = [];
    const store = endings(ends);
    const told: string[] = [];
    const run = newRun();
    const frame = frameRun(run, {
      journal: store,
      hooks: { onTurnEnd: () => void told.push('onTurnEnd') },
      work: async () => answered('hi'),
      lost: () => new Error('handed over'),
    });

    await expect(frame).rejects.toThrow('handed over');
    expect(ends).toEqual(['final']);
    expect(told).toEqual([]);
    expect(run.phase).toBe('running');
  });

  it('an unexpected error ends the run with the text the host gives it', async () => {
    const run = newRun();

    const outcome = await frameRun(run, {
      work: () => Promise.reject(new Error('secret detail')),
      unexpected: () => 'internal error',
    });

    expect(outcome).toMatchObject({ finishReason: 'error', error: 'internal error' });
    expect(run.phase).toBe('failed');
  });
});
