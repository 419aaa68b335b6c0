import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { LlmError } from './llm.errors';
import { OpenAiStreamAssembler } from './openai-stream.assembler';

type Delta = OpenAI.ChatCompletionChunk.Choice.Delta;

function chunk(
  delta: Delta,
  finish: OpenAI.ChatCompletionChunk.Choice['finish_reason'] = null,
): OpenAI.ChatCompletionChunk {
  return {
    id: 'c',
    object: 'chat.completion.chunk',
    created: 0,
    model: 'm',
    choices: [{ index: 0, delta, finish_reason: finish }],
  };
}

describe('OpenAiStreamAssembler', () => {
  it('joins tool-call fragments by index, whatever order the calls interleave in', () => {
    const assembler = new OpenAiStreamAssembler();
    assembler.add(
      chunk({ tool_calls: [{ index: 1, id: 'call_b', function: { name: 'second', arguments: '{"x"' } }] }),
    );
    assembler.add(
      chunk({ tool_calls: [{ index: 0, id: 'call_a', function: { name: 'first', arguments: '' } }] }),
    );
    assembler.add(chunk({ tool_calls: [{ index: 1, function: { name: 'second', arguments: ':1}' } }] }));
    assembler.add(chunk({ tool_calls: [{ index: 0, function: { arguments: '{}' } }] }, 'tool_calls'));
    expect(assembler.result().toolCalls).toEqual([
      { id: 'call_a', name: 'first', arguments: {} },
      { id: 'call_b', name: 'second', arguments: { x: 1 } },
    ]);
    expect(assembler.result().finishReason).toBe('tool_calls');
  });

  it('returns each text delta and keeps the usage of the final chunk', () => {
    const assembler = new OpenAiStreamAssembler();
    expect(assembler.add(chunk({ role: 'assistant', content: '' }))).toBe('');
    expect(assembler.add(chunk({ content: 'Hel' }))).toBe('Hel');
    expect(assembler.add(chunk({ content: 'lo' }, 'stop'))).toBe('lo');
    assembler.add({
      ...chunk({}),
      choices: [],
      usage: { prompt_tokens: 7, completion_tokens: 2, total_tokens: 9 },
    });
    expect(assembler.result()).toMatchObject({
      text: 'Hello',
      usage: { prompt_tokens: 7, completion_tokens: 2 },
    });
  });

  it('refuses arguments that are not a JSON object, naming the tool', () => {
    const assembler = new OpenAiStreamAssembler();
    assembler.add(
      chunk(
        { tool_calls: [{ index: 0, id: 'c1', function: { name: 'broken', arguments: '{"city": ' } }] },
        'tool_calls',
      ),
    );
    expect(() => assembler.result()).toThrow(LlmError);
    expect(() => assembler.result()).toThrow(/broken/);
  });
});
