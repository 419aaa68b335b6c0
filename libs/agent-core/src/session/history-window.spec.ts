import { describe, expect, it } from 'vitest';
import { countTokens } from '@app/protocol';
import { promptTokensOf } from '../model/prompt-estimate';
import type { RunContext } from '../run-context';
import { historyTurns, windowHistory, type WindowMessage } from './history-window';

const turn = (n: number, tokens = 10): WindowMessage[] => [
  { role: 'user', content: `question ${n}`, tokens },
  { role: 'assistant', content: `answer ${n}`, tokens },
];

describe('windowHistory', () => {
  it('keeps the whole history while it fits half the context and the message bound', () => {
    const history = [...turn(1), ...turn(2)];
    expect(windowHistory(history, 100, 4)).toEqual({ kept: history, folded: [] });
  });

  it('folds the older turns down to half the budget, the kept ones opening with a user turn', () => {
    const history = [1, 2, 3, 4, 5, 6].flatMap((n) => turn(n));
    const { kept, folded } = windowHistory(history, 200); // 120 tokens over a budget of 100: keep 50
    expect(kept.map((m) => m.content)).toEqual(['question 5', 'answer 5', 'question 6', 'answer 6']);
    expect(folded).toHaveLength(8);
  });

  it('folds down to half the message bound when the messages are many but short', () => {
    const history = [1, 2, 3, 4, 5, 6].flatMap((n) => turn(n, 1));
    const { kept, folded } = windowHistory(history, 10_000, 8);
    expect(kept).toHaveLength(4);
    expect(folded).toHaveLength(8);
  });

  it('changes what a turn sends only at a fold: between folds every history starts with the previous one', () => {
    let stored: WindowMessage[] = [];
    let previous: WindowMessage[] = [];
    let folds = 0;
    let extended = 0;
    for (let n = 1; n <= 100; n++) {
      const { kept, folded } = windowHistory(stored, 2_000, 40);
      if (folded.length > 0) {
        folds += 1;
        stored = kept;
      } else if (previous.length > 0) {
        // nothing rewritten: the previous turn's history, then what was appended since
        expect(kept.slice(0, previous.length)).toEqual(previous);
        extended += 1;
      }
      previous = kept;
      stored = [...stored, ...turn(n)];
    }
    // a fold keeps 20 of at most 40 messages: the next one is 10 turns later
    expect(folds).toBeLessThanOrEqual(10);
    expect(extended).toBeGreaterThan(85);
  });
});

describe('historyTurns', () => {
  it("hands the stored messages' counts to the prompt estimate instead of counting them again", () => {
    const ctx = {} as RunContext;
    const stored: WindowMessage[] = [
      { role: 'user', content: 'question one', tokens: 500 },
      { role: 'assistant', content: 'answer one', tokens: 0 },
    ];
    const messages = historyTurns(ctx, null, stored);
    expect(messages).toEqual([
      { role: 'user', content: 'question one' },
      { role: 'assistant', content: 'answer one' },
    ]);
    // 3 to prime the reply, 4 a message; the one stored with 0 is counted here
    expect(promptTokensOf({ messages })).toBe(3 + 4 + 500 + 4 + countTokens('answer one'));
  });
});
