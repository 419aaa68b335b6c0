import { describe, expect, it } from 'vitest';
import { PromptCache } from './prompt-cache';
import { anthropicPromptPieces, openAiPromptPieces, type PromptPiece } from './prompt-tokens';

/** `count` distinct stand-in tokens starting at `from`: one piece. */
const piece = (from: number, count: number, breakpoint = false): PromptPiece => ({
  tokens: Array.from({ length: count }, (_, i) => from + i),
  breakpoint,
});

describe('the emulated prompt cache, OpenAI style (automatic prefixes)', () => {
  it('caches nothing under 1,024 tokens, then reads whole 128-token blocks of an earlier prefix', () => {
    const cache = new PromptCache();
    expect(cache.automatic([piece(0, 1000)])).toEqual({ prompt: 1000, cached: 0, written: 0 });
    // the first long prompt writes its whole blocks (15 × 128), reads none
    expect(cache.automatic([piece(0, 2000)])).toEqual({ prompt: 2000, cached: 0, written: 1920 });
    // the same prompt grown: its first 1,920 tokens come from the cache, the rest is written
    expect(cache.automatic([piece(0, 2000), piece(5000, 300)])).toEqual({
      prompt: 2300,
      cached: 1920,
      written: 256,
    });
  });

  it('serves nothing past the first token that differs, and nothing under the minimum', () => {
    const cache = new PromptCache();
    cache.automatic([piece(0, 3000)]);
    expect(cache.automatic([piece(0, 1100), piece(9000, 900)]).cached).toBe(1024);
    expect(cache.automatic([piece(0, 900), piece(20000, 900)]).cached).toBe(0);
    expect(cache.automatic([piece(1, 3000)]).cached).toBe(0);
  });

  it('forgets the oldest entries past its size', () => {
    const cache = new PromptCache({ maxEntries: 10 });
    cache.automatic([piece(0, 1280)]);
    cache.automatic([piece(100_000, 1280)]);
    expect(cache.automatic([piece(0, 1280)]).cached).toBe(0);
  });
});

describe('the emulated prompt cache, Anthropic style (breakpoints)', () => {
  it('caches only prefixes ending at a marked block, and reads the longest one back', () => {
    const cache = new PromptCache();
    expect(cache.breakpoints([piece(0, 1500), piece(2000, 500)])).toEqual({
      prompt: 2000,
      cached: 0,
      written: 0,
    });
    expect(cache.breakpoints([piece(0, 1500, true), piece(2000, 500, true)])).toEqual({
      prompt: 2000,
      cached: 0,
      written: 2000,
    });
    // the next request marks its own end and the previous end: reads 2,000, writes what is new
    expect(
      cache.breakpoints([
        piece(0, 1500, true),
        piece(2000, 500, true),
        piece(3000, 700),
        piece(4000, 50, true),
      ]),
    ).toEqual({ prompt: 2750, cached: 2000, written: 750 });
  });

  it('looks back at most 20 blocks from a mark for an earlier cached prefix', () => {
    const cache = new PromptCache();
    const opening = [piece(0, 1100, true)];
    cache.breakpoints(opening);
    const blocks = Array.from({ length: 25 }, (_, i) => piece(10_000 + i * 10, 10));
    const far = [...opening.map((p) => ({ ...p, breakpoint: false })), ...blocks];
    far[far.length - 1] = { ...far[far.length - 1], breakpoint: true };
    expect(cache.breakpoints(far).cached).toBe(0);
  });

  it('caches nothing under 1,024 tokens even when marked', () => {
    const cache = new PromptCache();
    cache.breakpoints([piece(0, 900, true)]);
    expect(cache.breakpoints([piece(0, 900, true), piece(5000, 400, true)])).toEqual({
      prompt: 1300,
      cached: 0,
      written: 1300,
    });
  });
});

describe('prompt pieces as the providers render requests', () => {
  it('counts an OpenAI request as bench/protocol does: tools as sent, message overheads, reply priming', () => {
    const pieces = openAiPromptPieces({
      tools: [{ type: 'function', function: { name: 'add', parameters: {} } }],
      messages: [
        { role: 'system', content: 'Be brief.' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ function: { name: 'add', arguments: '{"a":1}' } }],
        },
      ],
    });
    const total = pieces.reduce((sum, p) => sum + p.tokens.length, 0);
    expect(pieces[0].tokens.length).toBeGreaterThan(10);
    // 2 messages × (3 + role) + content + call (3 + name + arguments) + 3 of priming
    expect(total).toBeGreaterThan(pieces[0].tokens.length + 2 * 4 + 3 + 3);
  });

  it("orders an Anthropic request tools, system, messages and keeps each block's mark", () => {
    const pieces = anthropicPromptPieces({
      tools: [{ name: 'add', input_schema: {}, cache_control: { type: 'ephemeral' } }],
      system: [{ type: 'text', text: 'Be brief.' }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'hi', cache_control: { type: 'ephemeral' } }] },
      ],
    });
    expect(pieces.map((p) => !!p.breakpoint)).toEqual([true, false, false, true, false]);
    expect(
      anthropicPromptPieces({
        messages: [{ role: 'user', content: 'hi' }],
        cache_control: { type: 'ephemeral' },
      }).at(-2)?.breakpoint,
    ).toBe(true);
  });
});
