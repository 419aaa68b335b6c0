import type { Command } from 'commander';
import { ChatPrinter } from '../chat-printer';
import { InterruptibleTurn } from '../interruptible-turn';
import type { RunPlanRequest } from '@app/client';
import { type CliContext, jsonObject, UsageError } from '../context';
import { EXIT_ERROR, EXIT_INTERRUPTED, exitCodeOf } from '../exit-codes';
import { startRepl } from '../repl/repl';

/** `chat` (a streamed turn, or the REPL without a message) and `run` (one turn for scripts). */
export function chatCommands(program: Command, ctx: CliContext): void {
  program
    .command('chat')
    .description('one streamed turn: thoughts, tool calls, then the answer (no message: the REPL)')
    .argument('[message]', 'what to ask; read from standard input when it is not a terminal')
    .option('-a, --agent <name>', 'agent profile')
    .option('-s, --session <id>', 'continue this session')
    .action(async (message: string | undefined, opts: { agent?: string; session?: string }, cmd: Command) => {
      const client = ctx.client(cmd);
      if (message === undefined && ctx.io.input.isTTY)
        return void (ctx.exitCode = await startRepl(ctx, client, {
          agent: opts.agent,
          session: opts.session,
        }));
      const text = message ?? (await readAll(ctx.io.input)).trim();
      const printer = new ChatPrinter(ctx.io.out, ctx.io.err, ctx.style);
      const request = { message: text, agent: opts.agent, session_id: opts.session };
      const turn = new InterruptibleTurn(client, (err) =>
        ctx.warn(`cancel failed: ${(err as Error).message}`),
      );
      const stopListening = ctx.io.onInterrupt?.(() => turn.interrupt());
      const resuming = (attempt: number, after: string) =>
        ctx.warn(ctx.errStyle.dim(`[connection lost: resuming after event ${after}, attempt ${attempt}]`));
      try {
        for await (const event of client.chatStream(request, {
          signal: turn.signal,
          onReconnect: resuming,
        })) {
          printer.print(event);
          if (event.type === 'run_start') turn.started(event.data.run_id);
        }
      } catch (err) {
        if (!turn.interrupted) throw err;
        ctx.warn(`${ctx.errStyle.yellow('[cancelled]')}${printer.runId ? ` run ${printer.runId}` : ''}`);
        return void (ctx.exitCode = EXIT_INTERRUPTED);
      } finally {
        stopListening?.();
      }
      if (!printer.reply) return void (ctx.exitCode = EXIT_ERROR);
      ctx.io.err.write(`${ctx.errStyle.dim(`session ${printer.reply.session_id}`)}\n`);
      ctx.exitCode = exitCodeOf(printer.reply.finish_reason);
    });

  program
    .command('repl')
    .description('an interactive conversation: one session across lines, /help for commands')
    .option('-a, --agent <name>', 'agent profile')
    .option('-s, --session <id>', 'continue this session')
    .option('--no-history', 'keep line history in memory only (no ~/.agentchassis_history)')
    .action(async (opts: { agent?: string; session?: string; history: boolean }, cmd: Command) => {
      ctx.exitCode = await startRepl(ctx, ctx.client(cmd), opts);
    });

  program
    .command('run')
    .description(
      'one task for scripts: prints the reply; exit 0 final, 2 a limit or parse_error, 3 awaiting approval, 1 an error',
    )
    .option('-m, --message <text>', 'the task (with --plan: what the answer addresses)')
    .option(
      '-p, --plan <json>',
      'carry out this plan instead of having the model write one: {"steps":[{"tool","parameters"}]}',
    )
    .option('-a, --agent <name>', 'agent profile')
    .option('-s, --session <id>', 'continue this session')
    .option('--json', 'print the whole response as JSON')
    .action(
      async (
        opts: { message?: string; plan?: string; agent?: string; session?: string; json?: boolean },
        cmd: Command,
      ) => {
        const plan = jsonObject('--plan', opts.plan) as RunPlanRequest['plan'] | undefined;
        if (!plan && !opts.message)
          throw new UsageError('give the task with --message, or a plan with --plan');
        const common = { agent: opts.agent, session_id: opts.session };
        const reply = plan
          ? await ctx.client(cmd).runs.plan({ ...common, plan, message: opts.message })
          : await ctx.client(cmd).chat({ ...common, message: opts.message as string });
        if (opts.json) ctx.json(reply);
        else {
          ctx.line(reply.reply);
          if (reply.finish_reason !== 'final')
            ctx.warn(`finish_reason: ${reply.finish_reason} (run ${reply.run_id})`);
        }
        ctx.exitCode = exitCodeOf(reply.finish_reason);
      },
    );
}

async function readAll(input: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of input) text += chunk.toString();
  return text;
}
