import type { ChatMessage } from './model-client';
import type { RunContext } from '../run-context';

/**
 * The caller's messages for model step `run.step`, appended to `messages` as user turns: the
 * journaled ones when the run retraces its journal (so a resumed run reads them in the same
 * place), then, once live, those waiting in the inbox. Each is traced, told and journaled.
 */
export async function takeUserMessages(ctx: RunContext, messages: ChatMessage[]): Promise<void> {
  const { run } = ctx;
  const step = run.step;
  const journaled = ctx.replay?.userMessages(step) ?? [];
  const live = ctx.replay?.replaying(step) ? [] : (ctx.inbox?.take() ?? []);
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
