import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask } from '../testing/executor-app';
import { arithmetic, startWorld, type World } from '../testing/world';

let world: World;

beforeAll(async () => {
  world = await startWorld({
    functions: [
      ...arithmetic,
      {
        name: 'label',
        params: { code: { type: 'string' } },
        required: ['code'],
        run: ({ code }) => ({ data: { code } }),
      },
    ],
    agents: (llmUrl) => [
      { name: 'json', protocol: 'json-action', allowed_tools: ['add'] },
      { name: 'native', protocol: 'native', allowed_tools: ['add', 'multiply'] },
      { name: 'labeller', allowed_tools: ['label'] },
      {
        name: 'claude',
        provider: 'anthropic',
        base_url: llmUrl,
        api_key: 'sk-ant-test',
        protocol: 'native',
        allowed_tools: ['add'],
      },
      {
        name: 'claude-xml',
        provider: 'anthropic',
        base_url: llmUrl,
        api_key: 'sk-ant-test',
        allowed_tools: ['add'],
      },
    ],
  });
});
afterAll(() => world?.close());

type Sent = {
  messages: Record<string, unknown>[];
  tools?: { function?: { name: string }; name?: string }[];
  system?: unknown;
};
const sent = (i: number) => world.llm.requests()[i].body as Sent;

describe('the json-action protocol', () => {
  it('reads one action per reply and a final answer', async () => {
    world.script({
      replies: [
        '{"type":"action","tool":"add","args":{"a":20,"b":22}}',
        '```json\n{"type":"final","answer":"42"}\n```',
      ],
    });
    const reply = await ask(world.bus, { message: 'Add 20 and 22', agent: 'json' });
    expect(reply).toMatchObject({ finish_reason: 'final', reply: '42' });
    expect(reply.function_calls).toEqual([{ name: 'add', status: 'success', result: { data: { sum: 42 } } }]);
    expect((sent(0).messages[0] as { content: string }).content).toContain('{"type":"action"');
  });
});

describe('the native protocol', () => {
  it('sends the allowed functions as tools and answers each tool call with a tool message', async () => {
    world.script({
      replies: [
        {
          toolCalls: [
            { name: 'add', arguments: { a: 1, b: 2 } },
            { name: 'multiply', arguments: { a: 3, b: 4 } },
          ],
        },
        'Three and twelve.',
      ],
    });
    const reply = await ask(world.bus, { message: 'Add and multiply', agent: 'native' });
    expect(reply).toMatchObject({ finish_reason: 'final', reply: 'Three and twelve.' });
    expect(sent(0).tools?.map((t) => t.function?.name)).toEqual(['add', 'multiply']);
    const toolMessages = sent(1).messages.filter((m) => m.role === 'tool');
    expect(toolMessages).toHaveLength(2);
    expect(toolMessages[0]).toMatchObject({
      tool_call_id: expect.any(String),
      content: expect.stringContaining('sum: 3'),
    });
    expect(toolMessages[1].content).toContain('product: 12');
  });
});

describe('the Anthropic path', () => {
  it('drives native tool use over the Messages API from a profile with its own endpoint', async () => {
    world.script({ replies: [{ toolCalls: [{ name: 'add', arguments: { a: 2, b: 2 } }] }, 'Four.'] });
    const reply = await ask(world.bus, { message: 'Two plus two', agent: 'claude' });
    expect(reply).toMatchObject({ finish_reason: 'final', reply: 'Four.' });
    expect(world.llm.requests().map((r) => r.path)).toEqual(['/v1/messages', '/v1/messages']);
    expect(sent(0).tools?.map((t) => t.name)).toEqual(['add']);
    const results = JSON.stringify(sent(1).messages.at(-1));
    expect(results).toContain('tool_result');
    expect(results).toContain('sum: 4');
  });

  it('speaks xml-toon over the Messages API too', async () => {
    world.script({ replies: ['<call name="add"><p>a: 5</p><p>b: 6</p></call>', 'Eleven.'] });
    const reply = await ask(world.bus, { message: 'Five plus six', agent: 'claude-xml' });
    expect(reply).toMatchObject({
      finish_reason: 'final',
      reply: 'Eleven.',
      function_calls: [{ name: 'add', status: 'success' }],
    });
    expect(JSON.stringify(sent(0).system)).toContain('<call');
  });
});

describe('schema typing', () => {
  it('gives a string parameter the text the model wrote', async () => {
    world.script({ replies: ['<call name="label"><p>code: 007</p></call>', 'Labelled.'] });
    const reply = await ask(world.bus, { message: 'Label 007', agent: 'labeller' });
    expect(reply.function_calls[0]).toMatchObject({ status: 'success', result: { data: { code: '007' } } });
    expect(world.functions.calls[0].request.params).toEqual({ code: '007' });
  });
});
