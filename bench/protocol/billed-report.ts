import type { BilledRequest, BilledScenario, Side } from './billed';
import type { SessionBill } from './session-cache';

/**
 * List prices in USD per million tokens the bill is priced at (gpt-5.4-mini). Writing the cache
 * costs nothing extra before OpenAI's GPT-5.6 family: a written token is an input token.
 */
export const PRICE = { input: 0.75, cachedInput: 0.075, cacheWrite: 0.75, output: 4.5 };
export const PRICE_SOURCE =
  "gpt-5.4-mini's list prices: input $0.75, cached input $0.075, output $4.50 per million tokens, no cache-write fee " +
  "(OpenAI's pricing page as quoted by price trackers through 2026; not checked live from this machine)";

/** The goals these figures are held to (issue: the bill as providers charge it). */
export const CACHE_HIT_GOAL = 0.9;
export const BILLED_USD_SAVING_GOAL = 0.5;
export const UNCACHED_SAVING_GOAL = 0.35;

const SIDES: Side[] = ['ours', 'functionCalling'];
const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
const usd = (value: number) => `$${value.toFixed(5)}`;
const met = (ok: boolean) => (ok ? '**met**' : '**not met**');
const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

/** A request's bill: each kind of token at its price. */
export function usdOf(request: BilledRequest): number {
  const full = request.prompt - request.cached - request.written;
  return (
    (full * PRICE.input +
      request.cached * PRICE.cachedInput +
      request.written * PRICE.cacheWrite +
      request.completion * PRICE.output) /
    1e6
  );
}

/** The same requests with no cache at all. */
export function uncachedUsdOf(request: BilledRequest): number {
  return (request.prompt * PRICE.input + request.completion * PRICE.output) / 1e6;
}

export interface SideTotals {
  requests: number;
  prompt: number;
  cached: number;
  completion: number;
  usd: number;
  uncachedUsd: number;
  /** Of the prompt tokens of the 2nd request on, the share the cache served. */
  hitsFromSecond: number;
  /** Of the tokens a request re-sent (the previous request's prompt), the share the cache served. */
  hitsOfResent: number;
}

/** A conversation's totals, or a group's (each conversation's requests counted in their own sequence). */
export function totals(...conversations: BilledRequest[][]): SideTotals {
  const all = conversations.flat();
  const later = conversations.flatMap((requests) => requests.slice(1));
  const resent = sum(
    conversations.flatMap((requests) => requests.slice(0, -1).map((request) => request.prompt)),
  );
  return {
    requests: all.length,
    prompt: sum(all.map((r) => r.prompt)),
    cached: sum(all.map((r) => r.cached)),
    completion: sum(all.map((r) => r.completion)),
    usd: sum(all.map(usdOf)),
    uncachedUsd: sum(all.map(uncachedUsdOf)),
    hitsFromSecond: sum(later.map((r) => r.cached)) / Math.max(1, sum(later.map((r) => r.prompt))),
    hitsOfResent: sum(later.map((r) => r.cached)) / Math.max(1, resent),
  };
}

export function billedSection(billed: BilledScenario[]): string[] {
  const conversations = billed.filter((scenario) => scenario.kind === 'conversation');
  const of = (scenarios: BilledScenario[], side: Side) => totals(...scenarios.map((s) => s.requests[side]));
  const suite = Object.fromEntries(SIDES.map((side) => [side, of(billed, side)])) as Record<Side, SideTotals>;
  const rows = conversations.map((scenario) => {
    const [ours, fc] = SIDES.map((side) => totals(scenario.requests[side]));
    return `| ${scenario.name} | ${ours.requests} | ${ours.prompt} / ${fc.prompt} | ${percent(ours.hitsFromSecond)} / ${percent(fc.hitsFromSecond)} | ${percent(ours.hitsOfResent)} / ${percent(fc.hitsOfResent)} | ${ours.completion} / ${fc.completion} | ${usd(ours.usd)} / ${usd(fc.usd)} | ${percent(1 - ours.usd / fc.usd)} |`;
  });
  const multi = SIDES.map((side) => of(conversations, side));
  const worstUsdSaving = Math.min(
    ...conversations.map((s) => 1 - totals(s.requests.ours).usd / totals(s.requests.functionCalling).usd),
  );
  const worstResent = Math.min(...conversations.map((s) => totals(s.requests.ours).hitsOfResent));
  const suiteUncachedSaving = 1 - suite.ours.prompt / suite.functionCalling.prompt;
  return [
    '### Billed, with prompt caching (bench/protocol/billed.ts)',
    '',
    'Every scenario above run for real: by the embedded SDK (`xml-toon`, the same toolset and instructions, every',
    'result whole) and by `@openai/agents` (JSON function calling), both against the scripted model with OpenAI’s',
    'prompt cache emulated (`--prompt-cache`: real o200k_base counts, message overheads as above, a prefix cached in',
    '128-token blocks from 1,024 tokens on, read back by any later request that starts with it). What each request was',
    'billed is what the model reported in its usage (`prompt_tokens_details.cached_tokens`). Priced at',
    `${PRICE_SOURCE}.`,
    '',
    '| Conversation | requests | prompt tokens, ours / JSON FC | cached, 2nd request on | cached, of what was sent before | completion | USD with caching | saved |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows,
    `| **three conversations** | ${multi[0].requests} | ${multi[0].prompt} / ${multi[1].prompt} | ${percent(multi[0].hitsFromSecond)} / ${percent(multi[1].hitsFromSecond)} | ${percent(multi[0].hitsOfResent)} / ${percent(multi[1].hitsOfResent)} | ${multi[0].completion} / ${multi[1].completion} | ${usd(multi[0].usd)} / ${usd(multi[1].usd)} | ${percent(1 - multi[0].usd / multi[1].usd)} |`,
    `| **whole suite** (${billed.length} scenarios) | ${suite.ours.requests} | ${suite.ours.prompt} / ${suite.functionCalling.prompt} | ${percent(suite.ours.hitsFromSecond)} / ${percent(suite.functionCalling.hitsFromSecond)} | ${percent(suite.ours.hitsOfResent)} / ${percent(suite.functionCalling.hitsOfResent)} | ${suite.ours.completion} / ${suite.functionCalling.completion} | ${usd(suite.ours.usd)} / ${usd(suite.functionCalling.usd)} | ${percent(1 - suite.ours.usd / suite.functionCalling.usd)} |`,
    '',
    `- Without any cache the same requests would bill ${usd(suite.ours.uncachedUsd)} (ours) and ${usd(suite.functionCalling.uncachedUsd)} (JSON FC) for the whole suite: caching takes ${percent(1 - suite.ours.usd / suite.ours.uncachedUsd)} off ours and ${percent(1 - suite.functionCalling.usd / suite.functionCalling.uncachedUsd)} off JSON FC.`,
    `- Cache hits of the tokens a request re-sent, ≥ ${percent(CACHE_HIT_GOAL)} on every multi-step conversation: ${met(worstResent >= CACHE_HIT_GOAL)} (worst ${percent(worstResent)}; what is lost is the last partial 128-token block of each request, and any prefix under 1,024 tokens). Of all prompt tokens from the second request on: ${percent(multi[0].hitsFromSecond)}; a request's new part (the results it carries) is never in any cache, so that share cannot approach 90% when results are large.`,
    `- Billed USD ≥ ${percent(BILLED_USD_SAVING_GOAL)} below JSON FC on the multi-step conversations: ${met(worstUsdSaving >= BILLED_USD_SAVING_GOAL)} (worst ${percent(worstUsdSaving)}).`,
    `- Whole suite, prompt tokens uncached (every request's prompt, as the model counted it) ≥ ${percent(UNCACHED_SAVING_GOAL)} fewer than JSON FC: ${met(suiteUncachedSaving >= UNCACHED_SAVING_GOAL)} (${percent(suiteUncachedSaving)}).`,
  ];
}

/** The long session, folded in steps against a window sliding every turn. */
export function sessionSection(bills: SessionBill[], turns: number, contextWindow: number): string[] {
  const rows = bills.map((bill) => {
    const t = totals(bill.turns);
    const s = totals(bill.summaries);
    return `| ${bill.variant} | ${t.requests} + ${s.requests} | ${t.prompt} | ${percent(t.hitsFromSecond)} | ${percent(t.hitsOfResent)} | ${s.prompt} | ${usd(t.usd + s.usd)} |`;
  });
  const [folded, sliding] = bills.map((bill) => totals(bill.turns).usd + totals(bill.summaries).usd);
  return [
    '### A long session: folding the history and the cache (bench/protocol/session-cache.ts)',
    '',
    `One session of ${turns} turns (~150-token messages, short answers) through the embedded SDK, \`context_window\``,
    `${contextWindow} (the history may take half), on the same caching model and prices. The platform folds the older`,
    'turns into a summary (one model call) once the history passes half the context, keeping a quarter, and leaves it',
    'alone until it passes half again: between folds each turn starts with the previous turn’s whole request. The',
    'comparison keeps no summary and slides the window to the newest turns that fit, every turn (what a store that',
    'keeps "the last N messages" does): each turn’s history then starts one turn later than the previous one’s.',
    '',
    '| History | requests (turns + summaries) | prompt tokens | cached, 2nd turn on | cached, of what was sent before | summary calls’ prompt | USD |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows,
    '',
    `- Folding in steps bills ${percent(1 - folded / sliding)} less than the sliding window, its summaries included; what it`,
    '  loses to the cache is each turn’s new message, the turn after a fold, and the summary calls themselves.',
  ];
}
