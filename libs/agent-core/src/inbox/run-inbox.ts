import type { ChatMessage } from '../model/model-client';
import type { RunContext } from '../run-context';

/** Messages a caller added to a run while it runs; the run takes them before each model step. */
export interface RunInbox {
  /** Every message waiting, oldest first; each is handed out once. */
  take(): string[];
}

/** An inbox in memory: what a host fills from wherever its callers' messages arrive. */
export class InMemoryRunInbox implements RunInbox {
  private pending: string[] = [];

  post(message: string): void {
    this.pending.push(message);
  }

  take(): string[] {
    return this.pending.splice(0);
  }
}

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
    await ctx.store?.userMessageReceived?.(run, { step, text });
  }
}

function receive({ run }: RunContext, messages: ChatMessage[], text: string): void {
  messages.push({ role: 'user', content: text });
  run.addTrace({ step: run.step, kind: 'user_message', message: text, elapsed_ms: 0 });
  run.emit('user_message', { step: run.step, text });
}
