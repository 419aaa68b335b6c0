import type { ChatMessage } from './model-client';
import type { RunContext } from '../run-context';

/**
 * The caller's messages for model step `run.step`, appended to `messages` as user turns: the
 * journaled ones when the run retraces its journal (so a resumed run reads them in the same
 * place), then, once live, those waiting in the inbox. Each is traced, told and journaled.
 * `last`: no model step may follow this one.
 */
export async function takeUserMessages(
  ctx: RunContext,
  messages: ChatMessage[],
  last = false,
): Promise<void> {
  const { run } = ctx;
  const step = run.step;
  const journaled = ctx.replay?.userMessages(step) ?? [];
  // On its last step the run could read no later message: the inbox closes as it is emptied.
  const inbox = ctx.inbox;
  const live = ctx.replay?.replaying(step) ? [] : ((last ? inbox?.close() : inbox?.take()) ?? []);
  for (const text of journaled) receive(ctx, messages, text);
  for (const text of live) {
    receive(ctx, messages, text);
    await ctx.journal?.userMessageReceived?.(run, { step, text });
  }
}

function receive({ run }: RunContext, messages: ChatMessage[], text: string): void {
  messages.push({ role: 'user', content: text });
  run.addTrace({ step: run.step, kind: 'user_message', message: text, elapsed_ms: 0 });
  run.emit('user_message', { step: run.step, text });
}
