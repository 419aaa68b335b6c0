import { commonFieldsText } from '../../libs/protocol/src/common-fields';
import { countTokens, describeFunctions, encodeData } from '../../libs/protocol/src/index';
import { PRICE } from './billed-report';
import { FUNCTIONS } from './functions';
import { ANSWER, messageTokens, REPLY_PRIMING, transcript, type Message } from './measure';
import type { Scenario, StepResult } from './scenarios';

/**
 * Where a conversation's bill goes, part by part, on the same counting as measure.ts and the
 * cache billed.ts runs against (OpenAI's: a request reads the previous request's prompt from the
 * cache in whole 128-token blocks, once that is at least 1,024 tokens). Deterministic: no model.
 */
export type Part =
  'definitions' | 'guide' | 'opening' | 'callsSent' | 'envelopes' | 'results' | 'callsWritten' | 'answer';
export type BillSide = 'ours' | 'functionCalling';

export interface PartBill {
  /** The part's tokens, each counted once (as written or first sent). */
  tokens: number;
  /** Prompt tokens over every request that sent it (completion tokens for what the model wrote). */
  billed: number;
  /** Of `billed`, read from the cache. */
  cached: number;
  usd: number;
}

export type Bill = Record<Part, PartBill>;

export const PARTS: Part[] = [
  'definitions',
  'guide',
  'opening',
  'callsSent',
  'envelopes',
  'results',
  'callsWritten',
  'answer',
];
const MIN_CACHED = 1024;
const BLOCK = 128;
const ASSISTANT = countTokens('assistant');

/** The scenarios' bills summed, part by part. */
export function billParts(scenarios: Scenario[], side: BillSide): Bill {
  const bill = emptyBill();
  for (const scenario of scenarios) addScenario(bill, scenario, side);
  return bill;
}

function addScenario(bill: Bill, scenario: Scenario, side: BillSide): void {
  const { opening, definitions, guide, turns } = transcript(scenario, side);
  const segments: [Part, number][] = [
    ['definitions', definitions],
    ['guide', guide],
    ['opening', opening - definitions - guide],
  ];
  for (const part of ['definitions', 'guide', 'opening'] as const)
    bill[part].tokens += tokenCount(segments, part);
  let previous = 0;
  for (let request = 0; request <= turns.length; request++) {
    if (request > 0) {
      const [calls, ...results] = turns[request - 1];
      const content = sum(scenario.steps[request - 1].results.map((result) => contentTokens(result, side)));
      const sent: [Part, number][] = [
        ['callsSent', messageTokens(calls)],
        ['envelopes', sum(results.map(messageTokens)) - content],
        ['results', content],
      ];
      segments.push(...sent);
      for (const [part, tokens] of sent) bill[part].tokens += tokens;
      addOutput(bill.callsWritten, written(calls));
    }
    const length = sum(segments.map(([, n]) => n)) + REPLY_PRIMING;
    const cachedUpTo = Math.floor(previous / BLOCK) * BLOCK;
    chargePrompt(bill, [...segments, ['opening', REPLY_PRIMING]], cachedUpTo >= MIN_CACHED ? cachedUpTo : 0);
    previous = length;
  }
  addOutput(bill.answer, countTokens(ANSWER));
}

/**
 * A result's own content, without what wraps it: the data as each side writes it (ours: TOON or
 * JSON, with `<every-row>`'s fields; JSON FC: its JSON), the message, the Markdown, the error.
 * Tokens merging across a piece's edge make this exact to a token or so a piece.
 */
function contentTokens(result: StepResult, side: BillSide): number {
  if (!result.ok) return countTokens(result.error);
  const { data, message, markdown } = result.content;
  const texts = [message ?? '', markdown ?? ''];
  if (data !== undefined && side === 'functionCalling') texts.push(JSON.stringify(data));
  else if (data !== undefined) {
    const encoded = encodeData(data);
    texts.push(encoded.text, encoded.common ? commonFieldsText(encoded.common) : '');
  }
  return sum(texts.map((text) => (text ? countTokens(text) : 0)));
}

/** Each segment's tokens before `cachedUpTo` at the cached price, the rest at the full one. */
function chargePrompt(bill: Bill, segments: [Part, number][], cachedUpTo: number): void {
  let at = 0;
  for (const [part, tokens] of segments) {
    const cached = Math.max(0, Math.min(tokens, cachedUpTo - at));
    bill[part].billed += tokens;
    bill[part].cached += cached;
    bill[part].usd += (cached * PRICE.cachedInput + (tokens - cached) * PRICE.input) / 1e6;
    at += tokens;
  }
}

function addOutput(part: PartBill, tokens: number): void {
  part.tokens += tokens;
  part.billed += tokens;
  part.usd += (tokens * PRICE.output) / 1e6;
}

/** What the model wrote: the message less its opening (role and overhead). */
function written(message: Message): number {
  return messageTokens(message) - 3 - ASSISTANT;
}

function tokenCount(segments: [Part, number][], part: Part): number {
  return sum(segments.filter(([p]) => p === part).map(([, n]) => n));
}

function emptyBill(): Bill {
  return Object.fromEntries(PARTS.map((part) => [part, { tokens: 0, billed: 0, cached: 0, usd: 0 }])) as Bill;
}

export function billTotal(bill: Bill): number {
  return sum(PARTS.map((part) => bill[part].usd));
}

function sum(values: number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

const LABELS: Record<Part, string> = {
  definitions: 'function definitions (ours: signatures; JSON FC: `tools`)',
  guide: 'how to call (our guide and its example)',
  opening: 'instructions, user message, message overheads',
  callsSent: 'calls, re-sent as history',
  envelopes: 'results’ envelopes (ours: tags, names, status; JSON FC: tool messages, JSON keys)',
  results: 'results’ content (data, message, Markdown, error)',
  callsWritten: 'calls, as the model writes them (completion)',
  answer: 'final answer (completion)',
};

const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
const usd = (value: number) => `$${value.toFixed(5)}`;

/** The breakdown of the conversations' bills, and what the part both sides must send leaves to win. */
export function billPartsSection(
  conversations: Scenario[],
  goal: number,
  suite: Scenario[],
  uncachedGoal: number,
): string[] {
  const [ours, fc] = SIDES.map((side) => billParts(conversations, side));
  const [oursTotal, fcTotal] = [billTotal(ours), billTotal(fc)];
  const rows = PARTS.map(
    (part) =>
      `| ${LABELS[part]} | ${ours[part].tokens} / ${fc[part].tokens} | ${ours[part].billed} / ${fc[part].billed} | ` +
      `${usd(ours[part].usd)} / ${usd(fc[part].usd)} | ${percent(ours[part].usd / oursTotal)} / ${percent(fc[part].usd / fcTotal)} |`,
  );
  const neededContent = Math.max(0, goal * fcTotal - (oursTotal - ours.results.usd));
  return [
    '#### Where the bill goes (bench/protocol/bill-parts.ts)',
    '',
    `The ${conversations.length} conversations' requests taken apart, on the counting of the token tables above, the same cache`,
    '(a request reads the previous one’s prompt in whole 128-token blocks, once that is 1,024 tokens) and the same',
    'prices. **Tokens once**: each part as written or first sent, summed over the conversations (the definitions',
    'once a conversation); **billed**: over every request that carried it. A result’s content and its envelope are',
    'told apart to a token or so a result. Ours comes within 0.5% of the run above (a token more or less moves a',
    '128-token block in or out of the cache); JSON FC’s run sends 64 tokens more a request (`"strict": false` in',
    'each tool, as `@openai/agents` writes them), hence its higher bill and our larger saving there.',
    '',
    '| Part | tokens once, ours / JSON FC | tokens billed | USD with caching | share of the bill |',
    '| --- | ---: | ---: | ---: | ---: |',
    ...rows,
    `| **total** | | | **${usd(oursTotal)} / ${usd(fcTotal)}** | saved ${percent(1 - oursTotal / fcTotal)} |`,
    '',
    '| Conversation | results’ content, ours / JSON FC | everything else | saved | best achievable |',
    '| --- | ---: | ---: | ---: | ---: |',
    ...conversations.map(conversationRow),
    '',
    `- Results’ content is ${percent(ours.results.usd / oursTotal)} of our bill and ${percent(fc.results.usd / fcTotal)} of JSON FC’s: both sides send it, new`,
    `  (uncached) once and cached in every later request. TOON makes ours ${percent(1 - ours.results.usd / fc.results.usd)} cheaper; a result that is not`,
    '  a table (a configuration, one object) costs what its JSON costs.',
    '- **Best achievable**: with every other part of ours free (no definitions, guide, envelopes or calls), ours',
    `  still pays its results’ content, the opening and the answer: at most ${percent(1 - floorOf(ours) / fcTotal)} below JSON FC over the`,
    `  ${conversations.length} conversations. The ${percent(goal)} goal is out of reach by construction; with the other parts as they are it needs the`,
    `  results’ content at ${usd(neededContent)} (now ${usd(ours.results.usd)}), ${percent(1 - neededContent / fc.results.usd)} below JSON FC’s.`,
    ...uncachedNote(suite, uncachedGoal),
  ];
}

const PROMPT_PARTS: Part[] = ['definitions', 'guide', 'opening', 'callsSent', 'envelopes', 'results'];

/** The whole suite's prompt tokens by part, and what the uncached goal would take off. */
function uncachedNote(suite: Scenario[], goal: number): string[] {
  const [ours, fc] = SIDES.map((side) => billParts(suite, side));
  const [oursPrompt, fcPrompt] = [ours, fc].map((bill) => sum(PROMPT_PARTS.map((part) => bill[part].billed)));
  const requests = sum(suite.map((scenario) => scenario.steps.length + 1));
  const system = ours.definitions.billed + ours.guide.billed;
  const over = oursPrompt - (1 - goal) * fcPrompt;
  const full = describeFunctions(FUNCTIONS);
  const brief = describeFunctions(FUNCTIONS, { budget: countTokens(full) - 1 });
  return [
    `- **Whole suite, prompt tokens uncached** (goal ${percent(goal)} fewer): ours ${oursPrompt} against ${fcPrompt}, ${percent(1 - oursPrompt / fcPrompt)} fewer on`,
    `  this count (the token tables’; the run above counts JSON FC’s \`"strict": false\` too). Of ours, the definitions and the guide, paid by each of the ${requests} requests, are ${system} (${percent(system / oursPrompt)}),`,
    `  results’ content ${ours.results.billed} (${percent(ours.results.billed / oursPrompt)}), envelopes ${ours.envelopes.billed}. On this count the goal needs ${Math.max(0, Math.ceil(over))} tokens fewer:`,
    `  ${Math.ceil(Math.max(0, over) / requests)} off every request’s system prompt (now ${Math.round(system / requests)} tokens of definitions and guide), or the`,
    `  results’ content ${percent(Math.max(0, over) / ours.results.billed)} smaller. The one-line listing the definition budget falls back to`,
    `  takes the ${FUNCTIONS.length} functions from ${countTokens(full)} to ${countTokens(brief)} tokens, but then each function costs a \`function_describe\``,
    '  call before its first use (a request more, its answer re-sent in every later one); not measured here.',
  ];
}

const SIDES = ['ours', 'functionCalling'] as const;

function conversationRow(scenario: Scenario): string {
  const [o, f] = SIDES.map((side) => billParts([scenario], side));
  const [oTotal, fTotal] = [billTotal(o), billTotal(f)];
  return (
    `| ${scenario.name} | ${usd(o.results.usd)} / ${usd(f.results.usd)} | ` +
    `${usd(oTotal - o.results.usd)} / ${usd(fTotal - f.results.usd)} | ${percent(1 - oTotal / fTotal)} | ` +
    `${percent(1 - floorOf(o) / fTotal)} |`
  );
}

/** What ours cannot avoid: the results, the opening and the final answer. */
function floorOf(bill: Bill): number {
  return bill.results.usd + bill.opening.usd + bill.answer.usd;
}
