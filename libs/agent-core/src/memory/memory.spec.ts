import { describe, expect, it, vi } from 'vitest';
import type { FunctionDefinition } from '@app/contracts';
import { InMemoryFunctions } from '../testing/in-memory-functions';
import type { FunctionCallRequest } from '../ports';
import { MEMORY_EXPAND, MEMORY_RETRIEVE, MemoryFunctions } from './memory-functions';
import type { MemoryStore } from './memory-store';
import { rankByBm25 } from './memory-ranking';
import { MAX_MEMORY_TERMS, memoryTerms } from './memory-terms';
import { MAX_SEGMENT_CHARS, segmentRun } from './run-segments';

describe('memoryTerms', () => {
  it('keeps words only: no operator, quote or column filter survives', () => {
    expect(memoryTerms('"cat" OR dog* AND NOT content:fish -(bird)')).toEqual([
      'cat',
      'or',
      'dog',
      'and',
      'not',
      'content',
      'fish',
      'bird',
    ]);
    expect(memoryTerms('Émigré 東京 café CAFÉ')).toEqual(['émigré', '東京', 'café']);
    expect(memoryTerms('" * ( ) : - ^ 🐈')).toEqual([]);
    expect(
      memoryTerms('w '.repeat(10) + Array.from({ length: 50 }, (_, i) => `t${i}`).join(' ')),
    ).toHaveLength(MAX_MEMORY_TERMS);
  });
});

describe('rankByBm25', () => {
  it('puts the rarer word, the more matches and the shorter text first', () => {
    const ranked = rankByBm25(
      ['miso', 'cat'],
      [
        { content: 'a cat' },
        { content: 'my cat Miso' },
        { content: 'the cat sat on the cat mat with another cat and more words' },
        { content: 'Mìso' },
        { content: 'nothing here' },
      ],
    );
    expect(ranked.map((r) => r.item.content)).toEqual([
      'my cat Miso',
      'Mìso',
      'a cat',
      'the cat sat on the cat mat with another cat and more words',
      'nothing here',
    ]);
    expect(ranked.at(-1)?.relevance).toBe(0);
    expect(rankByBm25(['x'], [])).toEqual([]);
  });
});

describe('segmentRun', () => {
  const base = {
    runId: 'run_1',
    principal: 'alice',
    sessionId: 'ses_1',
    agent: 'helper',
    at: new Date(0),
  };

  it('anchors the user message, each step’s thought, calls and results, then the response', () => {
    const segments = segmentRun({
      ...base,
      input: 'weather in Lisbon?',
      trace: [
        {
          step: 1,
          kind: 'action',
          thought: 'look it up',
          action: { tool: 'get_weather', args: { city: 'Lisbon' } },
          observation: 'sunny',
          elapsed_ms: 1,
        },
        { step: 1, kind: 'action', action: { tool: 'get_time', args: {} }, error: 'down', elapsed_ms: 1 },
        {
          step: 2,
          kind: 'action',
          action: { tool: MEMORY_RETRIEVE, args: { query: 'x' } },
          observation: 'old memories',
          elapsed_ms: 1,
        },
        { step: 3, kind: 'final', elapsed_ms: 1 },
      ],
      reply: 'Sunny.',
    });
    expect(segments.map((s) => [s.iterationIndex, s.segmentIndex, s.type, s.content])).toEqual([
      [0, 0, 'user_message', 'weather in Lisbon?'],
      [1, 0, 'reasoning', 'look it up'],
      [1, 1, 'tool_call', 'get_weather {"city":"Lisbon"}'],
      [1, 2, 'tool_result', 'sunny'],
      [1, 3, 'tool_call', 'get_time {}'],
      [1, 4, 'tool_result', 'down'],
      [3, 0, 'response', 'Sunny.'],
    ]);
    expect(segments.every((s) => s.principal === 'alice' && s.runId === 'run_1')).toBe(true);
  });

  it('answers a run without steps in step 1, and cuts long text', () => {
    const segments = segmentRun({
      ...base,
      input: 'x'.repeat(MAX_SEGMENT_CHARS + 10),
      trace: [],
      reply: 'hi',
    });
    expect(segments.map((s) => [s.iterationIndex, s.type, s.content.length])).toEqual([
      [0, 'user_message', MAX_SEGMENT_CHARS],
      [1, 'response', 2],
    ]);
  });
});

describe('MemoryFunctions', () => {
  const echo: FunctionDefinition = {
    name: 'echo',
    description: 'echo',
    parameters: { type: 'object', properties: {}, required: [] },
  };
  const impostor: FunctionDefinition = { ...echo, name: MEMORY_RETRIEVE, description: 'not mine' };
  const request = (name: string, args: Record<string, unknown>): FunctionCallRequest => ({
    name,
    args,
    callId: 'c1',
    signal: new AbortController().signal,
    timeoutMs: 1_000,
    caller: { kind: 'agent' } as FunctionCallRequest['caller'],
  });
  const store = (): MemoryStore => ({
    append: vi.fn(async () => undefined),
    search: vi.fn(async () => []),
    expand: vi.fn(async () => undefined),
  });
  const scope = { principal: 'alice', agent: 'helper' };

  it('lists the memory functions with the others, its own replacing any of the same name', async () => {
    const inner = new InMemoryFunctions().add(echo, () => ({})).add(impostor, () => ({}));
    const caller = new MemoryFunctions(inner, store(), scope);
    const names = (await caller.catalogue()).map((fn) => [fn.name, fn.provider]);
    expect(names).toEqual([
      ['echo', undefined],
      [MEMORY_EXPAND, 'memory'],
      [MEMORY_RETRIEVE, 'memory'],
    ]);
    expect((await caller.find(MEMORY_RETRIEVE))?.description).not.toBe('not mine');
    expect(await caller.find('echo')).toEqual(echo);
  });

  it('searches within the run’s scope, with a bounded limit, and passes other calls on', async () => {
    const memory = store();
    const inner = new InMemoryFunctions().add(echo, () => ({ data: 'echoed' }));
    const caller = new MemoryFunctions(inner, memory, scope);
    await caller.call(request(MEMORY_RETRIEVE, { query: 'Cat "OR" *' }));
    await caller.call(request(MEMORY_RETRIEVE, { query: 'cat', limit: 500 }));
    expect(vi.mocked(memory.search).mock.calls).toEqual([
      [scope, ['cat', 'or'], 5],
      [scope, ['cat'], 20],
    ]);
    expect(await caller.call(request('echo', {}))).toMatchObject({
      status: 'success',
      result: { data: 'echoed' },
    });
  });

  it('answers a query without words, an unknown anchor and a failing store as errors, never a throw', async () => {
    const memory = store();
    const caller = new MemoryFunctions(new InMemoryFunctions(), memory, scope);
    expect(await caller.call(request(MEMORY_RETRIEVE, { query: '"*"' }))).toMatchObject({
      status: 'error',
      error: { code: 'invalid_params' },
    });
    const anchor = { run_id: 'run_x', iteration_index: 1, segment_index: 0 };
    expect(await caller.call(request(MEMORY_EXPAND, anchor))).toMatchObject({
      status: 'error',
      error: { code: 'not_found' },
    });
    expect(vi.mocked(memory.expand).mock.calls[0]).toEqual([
      scope,
      { runId: 'run_x', iterationIndex: 1, segmentIndex: 0 },
      2,
    ]);
    vi.mocked(memory.search).mockRejectedValueOnce(new Error('database is locked'));
    expect(await caller.call(request(MEMORY_RETRIEVE, { query: 'cat' }))).toMatchObject({
      status: 'error',
      error: { code: 'unavailable' },
    });
  });
});
