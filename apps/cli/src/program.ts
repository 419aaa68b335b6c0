import { Command } from 'commander';
import { AgentChassisError } from '@app/client';
import { looksLikeOption } from '@app/config';
import { chatCommands } from './commands/chat.commands';
import { resourceCommands } from './commands/resources.commands';
import { taskCommands } from './commands/tasks.commands';
import { type CliContext, UsageError } from './context';
import { EXIT_ERROR } from './exit-codes';

/**
 * The `agentchassis` command line. An action sets `ctx.exitCode` when it is not 0; an API
 * error prints its message and code on stderr and exits 1.
 */
export function createProgram(ctx: CliContext): Command {
  const program = new Command('agentchassis')
    .description('Talk to an AgentChassis gateway: chat, run tasks, inspect runs, call functions, schedule.')
    .option('--url <url>', 'the gateway (default: $AC_URL or http://127.0.0.1:3000)')
    .option('--key <key>', 'the API key (default: $AC_API_KEY)')
    .showHelpAfterError()
    .hook('preAction', (_program, action) => refuseOptionLikeWords(action))
    .configureOutput({
      writeOut: (text) => ctx.io.out.write(text),
      writeErr: (text) => ctx.io.err.write(text),
    });
  chatCommands(program, ctx);
  resourceCommands(program, ctx);
  taskCommands(program, ctx);
  return program;
}

/** Runs the command line and answers the process's exit code. */
export async function runCli(ctx: CliContext, argv: string[]): Promise<number> {
  const program = createProgram(ctx);
  for (const command of allCommands(program)) command.exitOverride();
  try {
    await program.parseAsync(argv, { from: 'user' });
    return ctx.exitCode;
  } catch (err) {
    return report(ctx, err);
  }
}

function report(ctx: CliContext, err: unknown): number {
  const s = ctx.errStyle;
  const commander = err as { code?: string; exitCode?: number };
  if (typeof commander.code === 'string' && commander.code.startsWith('commander.'))
    return commander.exitCode ?? EXIT_ERROR;
  if (err instanceof AgentChassisError) {
    const retry = err.retryAfter !== undefined ? ` (retry after ${err.retryAfter} s)` : '';
    ctx.warn(
      `${s.red('error')}: ${err.message} (${err.code}${err.status ? `, HTTP ${err.status}` : ''})${retry}`,
    );
    if (Array.isArray(err.details))
      for (const d of err.details as { field?: string; message?: string }[])
        if (d.field) ctx.warn(`  ${d.field}: ${d.message}`);
  } else if (err instanceof UsageError) ctx.warn(`${s.red('error')}: ${err.message}`);
  else ctx.warn(`${s.red('error')}: ${(err as Error)?.message ?? String(err)}`);
  return EXIT_ERROR;
}

/** `keys create -n --help` must not make a key named --help: a name or value that is an option word is refused. */
function refuseOptionLikeWords(command: Command): void {
  const words = [...command.args, ...Object.values(command.opts()).flat()];
  const word = words.find((w): w is string => typeof w === 'string' && looksLikeOption(w));
  if (word !== undefined)
    throw new UsageError(
      `'${word}' looks like an option, not a name or a value (see ${command.name()} --help)`,
    );
}

function allCommands(command: Command): Command[] {
  return [command, ...command.commands.flatMap(allCommands)];
}
