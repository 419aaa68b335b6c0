import { createHash } from 'node:crypto';
import type { PromptPiece } from './prompt-tokens';

/** What a request's prompt cost, as a provider with a prompt cache reports it. */
export interface PromptAccount {
  /** Every prompt token. */
  prompt: number;
  /** Of those, read from the cache. */
  cached: number;
  /** Of those, written to the cache. */
  written: number;
}

export interface PromptCacheOptions {
  /** The shortest prefix a provider caches (OpenAI and Anthropic's larger models: 1,024 tokens). */
  minTokens?: number;
  /** OpenAI caches prefixes in steps of this many tokens past the minimum. */
  blockTokens?: number;
  /** Cache entries kept, oldest dropped first (a provider's cache evicts too). */
  maxEntries?: number;
  /** Anthropic looks this many blocks back from a breakpoint for an earlier cached prefix. */
  lookbackBlocks?: number;
}

/**
 * A provider's prompt cache, emulated so that caching is measured here: a request whose prompt
 * starts with a prefix an earlier request left in the cache pays that prefix as cached.
 * - `automatic` (OpenAI): every prompt of at least `minTokens` is cached in `blockTokens` steps;
 *   a request reads the longest run of whole blocks from its start that an earlier request cached.
 * - `breakpoints` (Anthropic): only prefixes ending at a block the client marked are cached; a
 *   request reads the longest cached prefix ending at a block boundary within `lookbackBlocks` of
 *   one of its marks, and writes everything from there to its last mark.
 * Prefixes are identified by a chained hash of their tokens, so two prompts share an entry exactly
 * when they share the tokens. One cache for every client: the routing that makes a provider's
 * cache per-machine (OpenAI's `prompt_cache_key`) is not emulated.
 */
export class PromptCache {
  private readonly entries = new Map<string, true>();
  private readonly minTokens: number;
  private readonly blockTokens: number;
  private readonly maxEntries: number;
  private readonly lookback: number;

  constructor(options: PromptCacheOptions = {}) {
    this.minTokens = options.minTokens ?? 1024;
    this.blockTokens = options.blockTokens ?? 128;
    this.maxEntries = options.maxEntries ?? 200_000;
    this.lookback = options.lookbackBlocks ?? 20;
  }

  automatic(pieces: PromptPiece[]): PromptAccount {
    const tokens = pieces.flatMap((piece) => piece.tokens);
    const prompt = tokens.length;
    if (prompt < this.minTokens) return { prompt, cached: 0, written: 0 };
    let hash = '';
    let cached = 0;
    let reading = true;
    let written = 0;
    for (let end = this.blockTokens; end <= prompt; end += this.blockTokens) {
      hash = chain(hash, tokens.slice(end - this.blockTokens, end));
      if (reading && this.has(hash)) cached = end;
      else {
        reading = false;
        this.add(hash);
        written += this.blockTokens;
      }
    }
    if (cached < this.minTokens) cached = 0;
    return { prompt, cached, written };
  }

  breakpoints(pieces: PromptPiece[]): PromptAccount {
    const ends: { at: number; hash: string; marked: boolean }[] = [];
    let at = 0;
    let hash = '';
    for (const piece of pieces) {
      at += piece.tokens.length;
      hash = chain(hash, piece.tokens);
      ends.push({ at, hash, marked: !!piece.breakpoint });
    }
    const prompt = at;
    const marks = ends.flatMap((end, index) => (end.marked ? [index] : []));
    if (marks.length === 0) return { prompt, cached: 0, written: 0 };
    let cached = 0;
    for (const mark of marks)
      for (let i = mark; i >= Math.max(0, mark - this.lookback); i--)
        if (ends[i].at >= this.minTokens && ends[i].at > cached && this.has(ends[i].hash))
          cached = ends[i].at;
    const last = ends[marks[marks.length - 1]];
    for (const mark of marks) if (ends[mark].at >= this.minTokens) this.add(ends[mark].hash);
    const written = last.at >= this.minTokens ? Math.max(0, last.at - cached) : 0;
    return { prompt, cached, written };
  }

  private has(hash: string): boolean {
    if (!this.entries.has(hash)) return false;
    // used again: now the newest
    this.entries.delete(hash);
    this.entries.set(hash, true);
    return true;
  }

  private add(hash: string): void {
    this.entries.delete(hash);
    this.entries.set(hash, true);
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
  }
}

function chain(previous: string, tokens: number[]): string {
  return createHash('sha1').update(previous).update(Int32Array.from(tokens)).digest('base64');
}
