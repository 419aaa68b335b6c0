import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '@app/agent-core';
import { AppError } from '@app/contracts';
import { forkJournal } from './fork-journal';

const model = (step: number, seq: number): JournalEntry => ({
  kind: 'model_step',
  seq,
  step,
  text: `reply ${step}`,
  toolCalls: [],
  stopReason: 'stop',
  usage: { prompt_tokens: 10, completion_tokens: 2 },
  elapsedMs: 5,
});
const call = (step: number, index: number, seq: number): JournalEntry => ({
  kind: 'tool_call',
  seq,
  step,
  index,
  name: 'add',
  args: { a: 1, b: 2 },
  status: 'success',
  observation: '<result name="add" status="success">\n  <data type="toon">\nsum: 3\n  </data>\n</result>',
  executed: true,
  elapsedMs: 3,
});
const RUN: JournalEntry[] = [
  model(1, 1),
  call(1, 0, 2),
  call(1, 1, 3),
  model(2, 4),
  call(2, 0, 5),
  model(3, 6),
];
const FORMAT = { maxLen: 4000 };
const refusal = (f: () => unknown) => {
  try {
    f();
  } catch (err) {
    return (err as AppError).toBody();
  }
  throw new Error('not refused');
};

describe("a fork's journal", () => {
  it('keeps the steps before from_step, numbered again from 1', () => {
    const journal = forkJournal(RUN, { fromStep: 2 }, FORMAT);
    expect(journal.map((e) => [e.kind, e.step, e.seq])).toEqual([
      ['model_step', 1, 1],
      ['tool_call', 1, 2],
      ['tool_call', 1, 3],
    ]);
    expect(forkJournal(RUN, { fromStep: 1, message: 'another question' }, FORMAT)).toEqual([]);
  });

  it('answers the previous step’s calls as given: data, text, or an error; marked not executed', () => {
    const journal = forkJournal(
      RUN,
      {
        fromStep: 2,
        toolResults: [
          { index: 0, result: { sum: 40 } },
          { index: 1, result: 'the service is down', status: 'error' },
        ],
      },
      FORMAT,
    );
    const [, first, second] = journal;
    expect(first).toMatchObject({ status: 'success', executed: false });
    expect((first as { observation: string }).observation).toContain('sum: 40');
    expect(second).toMatchObject({
      status: 'error',
      executed: false,
      error: { message: 'the service is down' },
    });
    expect((second as { observation: string }).observation).toContain('<error>the service is down</error>');
  });

  it('adds the caller’s message before from_step', () => {
    const journal = forkJournal(RUN, { fromStep: 3, message: 'in euros, please' }, FORMAT);
    expect(journal.at(-1)).toEqual({
      kind: 'user_message',
      seq: 6,
      step: 3,
      text: 'in euros, please',
      elapsedMs: 0,
    });
  });

  it('refuses a step past the run’s, results without a step before, and a call the step did not make', () => {
    expect(refusal(() => forkJournal(RUN, { fromStep: 4 }, FORMAT))).toMatchObject({
      code: 'invalid_params',
      details: [{ field: 'from_step', message: 'must be a model step of the run, from 1 to 3' }],
    });
    expect(
      refusal(() => forkJournal(RUN, { fromStep: 1, toolResults: [{ index: 0, result: 1 }] }, FORMAT)),
    ).toMatchObject({
      details: [{ field: 'tool_results' }],
    });
    expect(
      refusal(() => forkJournal(RUN, { fromStep: 3, toolResults: [{ index: 1, result: 1 }] }, FORMAT)),
    ).toMatchObject({
      details: [{ field: 'tool_results.0.index', message: 'step 2 has no call 1 (its calls: 0)' }],
    });
  });
});
