import { describe, expect, it } from 'vitest';
import type { ModelStepEntry } from '@app/agent-core';
import { countTokens } from '@app/protocol';
import { partOf, promptView, systemSections } from './prompt-parts';

const reply: ModelStepEntry = {
  kind: 'model_step',
  seq: 3,
  step: 2,
  text: 'Done, token: sk-abcdefghijklmnop',
  toolCalls: [],
  stopReason: 'stop',
  usage: { prompt_tokens: 120, completion_tokens: 8 },
  elapsedMs: 40,
};

describe('a rebuilt model request as the studio shows it', () => {
  it('names each message’s part: system, summary, history, the message, replies, results, added messages, repairs', () => {
    const opening = { history: 3, added: ['also: in euros'] };
    const parts = [
      { role: 'system' as const, content: 'You help.' },
      { role: 'system' as const, content: 'Summary of earlier turns: ...' },
      { role: 'user' as const, content: 'earlier question' },
      { role: 'assistant' as const, content: 'earlier answer' },
      { role: 'user' as const, content: 'the question' },
      { role: 'assistant' as const, content: '<call name="add"></call>' },
      { role: 'user' as const, content: '<result name="add" status="success">\n</result>' },
      { role: 'user' as const, content: 'also: in euros' },
      { role: 'user' as const, content: 'Your reply could not be read: ...' },
      { role: 'tool' as const, content: '{"sum":1}' },
    ].map((m, i) => partOf(m, i, opening));
    expect(parts).toEqual([
      'system',
      'summary',
      'history',
      'history',
      'input',
      'assistant',
      'result',
      'message',
      'repair',
      'result',
    ]);
  });

  it('splits the system prompt into instructions, guide and functions by the builder’s layout', () => {
    const content = 'Be brief.\n\nCall functions like this.\n\n## Functions\nadd(a: number, b: number)';
    expect(systemSections(content, 'Be brief.').map((s) => s.name)).toEqual([
      'instructions',
      'guide',
      'functions',
    ]);
    expect(systemSections(content, 'Be brief.')[2].tokens).toBe(
      countTokens('## Functions\nadd(a: number, b: number)'),
    );
    expect(systemSections('Only instructions.', 'Only instructions.').map((s) => s.name)).toEqual([
      'instructions',
    ]);
  });

  it('masks secrets before counting, says so, and adds the tokens up by part', () => {
    const view = promptView(
      {
        messages: [
          { role: 'system', content: 'You help.' },
          { role: 'user', content: 'my key is sk-abcdefghijklmnop' },
        ],
      },
      reply,
      { history: 0, added: [] },
      { runId: 'run_1', agent: 'a', protocol: 'xml-toon', instructions: 'You help.' },
      (text) => text.replaceAll('sk-abcdefghijklmnop', 'sk-***'),
    );
    expect(view.redacted).toBe(true);
    expect(view.messages[1]).toMatchObject({ part: 'input', content: 'my key is sk-***' });
    expect(view.reply.text).toBe('Done, token: sk-***');
    expect(view.tokens_by_part).toEqual({ system: view.messages[0].tokens, input: view.messages[1].tokens });
    expect(view.reply).toMatchObject({ prompt_tokens: 120, completion_tokens: 8, elapsed_ms: 40 });
  });
});
