// What folding a long session's history costs in cache hits: one session of many turns through the
// embedded SDK, its history windowed to a small context, against the scripted model with OpenAI's
// prompt cache emulated. The platform folds the older turns into a summary in steps (down to a
// quarter of the context, then not again until half is used); the comparison slides the window by
// the newest turns every turn, as a store that keeps only what fits would. Needs the build (dist/).
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type * as Sdk from '../../libs/agent/src';
import type * as Testing from '../../libs/testing/src';
import { ROOT } from '../common/processes';
import type { BilledRequest } from './billed';
import { INSTRUCTIONS } from './measure';

const load = createRequire(join(ROOT, 'package.json'));
const sdk = load(join(ROOT, 'dist/libs/agent/src/index.js')) as typeof Sdk;
const testing = load(join(ROOT, 'dist/libs/testing/src/index.js')) as typeof Testing;

export const SESSION_TURNS = 60;
export const CONTEXT_WINDOW = 8_000;
const SUMMARY_ASKED = 'Summarise this conversation';

export interface SessionBill {
  variant: 'folded in steps' | 'sliding window';
  /** The turns' requests (the summaries' apart). */
  turns: BilledRequest[];
  /** The requests that wrote a summary. */
  summaries: BilledRequest[];
}

/** ~150 tokens of a user's message, different every turn. */
function message(turn: number): string {
  const topics = ['the invoice run', 'the cache miss rate', 'the deploy on web-2', 'the refund queue'];
  return `Turn ${turn}. About ${topics[turn % topics.length]}: ${'we looked at the numbers again and they moved a little, so please keep track of what changed since the last look and what we decided. '.repeat(4)}`;
}

export async function measureSessionCache(): Promise<SessionBill[]> {
  const llm = await testing.startScriptedLlm({ promptCache: true, maxRecordedRequests: 1_000 });
  try {
    llm.setScript({
      rules: [
        {
          match: SUMMARY_ASKED,
          reply: 'SUMMARY: the user tracks invoices, cache misses, deploys and refunds.',
        },
      ],
      fallback: 'Noted; I will keep track of it.',
    });
    const bills: SessionBill[] = [];
    for (const variant of ['folded in steps', 'sliding window'] as const) {
      llm.clearRequests();
      const agent = sdk.createAgent({
        name: 'chat',
        instructions: INSTRUCTIONS,
        model: sdk.openai({ baseURL: llm.url, apiKey: 'bench', model: 'gpt-5.4-mini', maxRetries: 0 }),
        limits: { contextWindow: CONTEXT_WINDOW },
        sessions: variant === 'sliding window' ? new SlidingStore(CONTEXT_WINDOW / 2) : undefined,
      });
      // a session of its own per variant: both start from an empty cache for their history
      const session = agent.session(`ses_${variant.replace(' ', '_')}`);
      for (let turn = 1; turn <= SESSION_TURNS; turn++) await session.submitTurn(message(turn));
      const requests = llm.requests();
      const isSummary = (request: Testing.RecordedRequest) =>
        JSON.stringify(request.body).includes(SUMMARY_ASKED);
      bills.push({
        variant,
        turns: requests.filter((r) => !isSummary(r)).map((r) => r.usage!),
        summaries: requests.filter(isSummary).map((r) => r.usage!),
      });
    }
    return bills;
  } finally {
    await llm.close();
  }
}

type Stored = Awaited<ReturnType<Sdk.SessionStore['load']>>;

/** A store that hands a turn only the newest messages that fit `budget` tokens: the window slides every turn. */
class SlidingStore implements Sdk.SessionStore {
  private readonly messages = new Map<string, Stored['messages']>();
  private readonly budget: number;

  constructor(budget: number) {
    this.budget = budget;
  }

  async load(sessionId: string): Promise<Stored> {
    const all = this.messages.get(sessionId) ?? [];
    let used = 0;
    let start = all.length;
    while (start > 0 && used + all[start - 1].tokens <= this.budget) used += all[--start].tokens;
    while (start < all.length && all[start].role !== 'user') start++;
    return { summary: null, messages: all.slice(start) };
  }

  async append(sessionId: string, added: Stored['messages']): Promise<void> {
    this.messages.set(sessionId, [...(this.messages.get(sessionId) ?? []), ...added]);
  }

  async saveSummary(): Promise<void> {}
}
