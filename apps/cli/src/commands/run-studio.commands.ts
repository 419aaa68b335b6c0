import type { Command } from 'commander';
import type { ForkRunBody } from '@app/contracts';
import { ChatPrinter } from '../chat-printer';
import { type CliContext, integer, UsageError } from '../context';
import { EXIT_ERROR, exitCodeOf } from '../exit-codes';

type ForkOptions = {
  from: number;
  message?: string;
  agent?: string;
  model?: string;
  result?: string[];
  sameSession?: boolean;
  json?: boolean;
};

/** `runs fork` and `runs messages`: a run tried again from a step, and what one model step saw. */
export function runStudioCommands(runs: Command, ctx: CliContext): void {
  runs
    .command('fork')
    .description('run a run again from a step (earlier steps from its journal), streaming the new run')
    .argument('<id>', 'run id')
    .requiredOption('--from <step>', 'the first step run live again', (v) => integer('--from', v))
    .option(
      '-m, --message <text>',
      'at step 1 the run’s message instead; later, a message added before the step',
    )
    .option('--agent <name>', 'another agent profile from the step on')
    .option('--model <model>', 'another model from the step on')
    .option(
      '--result <index=json>',
      'a result of the previous step’s call <index> to give the model instead (repeatable)',
      (v: string, all: string[] = []) => [...all, v],
    )
    .option('--same-session', 'continue the run’s session (default: a new one)')
    .option('--json', 'wait for the end and print the response as JSON')
    .action(async (id: string, opts: ForkOptions, cmd: Command) => {
      const client = ctx.client(cmd);
      const body = forkBody(opts);
      if (opts.json) {
        const reply = await client.runs.fork(id, body);
        ctx.json(reply);
        return void (ctx.exitCode = exitCodeOf(reply.finish_reason));
      }
      const printer = new ChatPrinter(ctx.io.out, ctx.io.err, ctx.style);
      for await (const event of client.runs.forkStream(id, body)) printer.print(event);
      ctx.exitCode = printer.reply ? exitCodeOf(printer.reply.finish_reason) : EXIT_ERROR;
    });
  runs
    .command('messages')
    .description('what one model step sent (system prompt, history, results) and got back, with tokens')
    .argument('<id>', 'run id')
    .argument('<step>', 'model step', (v) => integer('<step>', v))
    .option('--json', 'print JSON')
    .action(async (id: string, step: number, opts: { json?: boolean }, cmd: Command) => {
      const view = await ctx.client(cmd).runs.stepMessages(id, step);
      if (opts.json) return ctx.json(view);
      for (const m of view.messages) {
        ctx.line(ctx.style.bold(`— ${m.role} (${m.part}) · ${m.tokens} tokens`));
        ctx.line(m.content);
      }
      ctx.line(ctx.style.bold(`— reply · ${view.reply.completion_tokens} completion tokens`));
      ctx.line(view.reply.text);
    });
}

function forkBody(opts: ForkOptions): ForkRunBody {
  const results = (opts.result ?? []).map((text) => {
    const at = text.indexOf('=');
    const index = at > 0 ? integer('--result', text.slice(0, at)) : NaN;
    if (Number.isNaN(index)) throw new UsageError(`--result must be <index>=<json>, not '${text}'`);
    const value = text.slice(at + 1);
    let result: unknown = value;
    try {
      result = JSON.parse(value);
    } catch {
      // plain text: the model reads it as the result's message
    }
    return { index, result };
  });
  return {
    from_step: opts.from,
    ...(opts.message ? { message: opts.message } : {}),
    ...(opts.agent ? { agent: opts.agent } : {}),
    ...(opts.model ? { model: opts.model } : {}),
    ...(results.length ? { tool_results: results } : {}),
    ...(opts.sameSession ? { session: 'same' as const } : {}),
  };
}
