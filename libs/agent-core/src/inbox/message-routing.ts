import type { ModelClient, TokenUsage } from '../model/model-client';
import type { PromptSet } from '../prompts/prompt-set';

/** Whether a message goes to the session's running run, and why. */
export interface RoutingVerdict {
  join: boolean;
  reason: string;
}

/** A verdict the model gave, with what asking it cost (absent when the call failed). */
export interface AskedVerdict extends RoutingVerdict {
  usage?: TokenUsage;
}

const MAX_REPLY_TOKENS = 100;

/**
 * Asks the model whether `message` belongs to the run working on `goal` (a short fixed prompt,
 * one call). A reply that cannot be read, or a failed call, starts a new run: a message wrongly
 * added to a run derails it, a new run beside it costs only its own tokens.
 */
export async function classifyMessage(
  model: ModelClient,
  prompts: PromptSet,
  question: { goal: string; message: string },
): Promise<AskedVerdict> {
  try {
    const result = await model.complete({
      messages: [
        { role: 'system', content: prompts.render('routing_instructions') },
        { role: 'user', content: prompts.render('routing_request', question) },
      ],
      maxTokens: MAX_REPLY_TOKENS,
      temperature: 0,
    });
    return { ...readVerdict(result.text), usage: result.usage };
  } catch (err) {
    return { join: false, reason: `the model could not be asked: ${(err as Error).message}` };
  }
}

/** `{"join": bool, "reason": "..."}`, possibly inside prose or a code fence. */
export function readVerdict(text: string): RoutingVerdict {
  const json = /\{[\s\S]*\}/.exec(text)?.[0];
  try {
    const parsed = JSON.parse(json ?? '') as { join?: unknown; reason?: unknown };
    if (typeof parsed.join === 'boolean')
      return { join: parsed.join, reason: typeof parsed.reason === 'string' ? parsed.reason : '' };
  } catch {
    // not JSON: answered below
  }
  return { join: false, reason: `the model's answer could not be read: ${text.slice(0, 200)}` };
}
