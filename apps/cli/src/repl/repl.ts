import { createInterface, type Interface } from 'node:readline';
import type { AgentChassisClient } from '@app/client';
import type { CliContext } from '../context';
import { EXIT_OK } from '../exit-codes';
import { HistoryFile } from './history-file';
import { ReplSession } from './repl-session';

export interface ReplOptions {
  agent?: string;
  session?: string;
  history?: boolean;
}

const HELP = `/agent <name>                 talk to another agent (starts a new session)
/new                          start a new session
/session                      show the session and its messages
/trace                        the last run's trace
/approve [<call_id>]          run the last run's call held for approval (name it when several
                              wait: its id, or the id's <step>:<index> ending), or the plan it holds
/reject [<call_id>] [reason…] refuse it (the model reads the reason), or reject the held plan
                              (the reason on record with the decision)
/help                         this help
/quit                         leave (also Ctrl-D, or Ctrl-C twice at an empty prompt)
Ctrl-C during a turn cancels the run.`;

/**
 * The interactive conversation: each line is a streamed turn on one session, slash commands for
 * the rest. Ctrl-C cancels a turn in flight, not the REPL.
 */
export function startRepl(
  ctx: CliContext,
  client: AgentChassisClient,
  options: ReplOptions,
): Promise<number> {
  const historyFile = options.history === false ? undefined : HistoryFile.inHome(ctx.env.HOME);
  const rl = createInterface({
    input: ctx.io.input,
    output: ctx.io.out as NodeJS.WritableStream,
    terminal: Boolean(ctx.io.input.isTTY && ctx.io.out.isTTY),
    history: historyFile?.load() ?? [],
    historySize: 500,
  });
  const session = new ReplSession(ctx, client, options);
  const s = ctx.style;
  rl.setPrompt(`${s.cyan('you')}${s.dim('>')} `);
  ctx.line(s.dim(`agentchassis repl: ${session.describe()}. /help for commands.`));

  return new Promise<number>((resolve) => {
    let armedQuit = false;
    let inputEnded = false;
    let quitting = false;
    // Lines are answered one after another: typed ahead during a turn, or piped, none is lost,
    // and the end of the input waits for the turn in flight.
    let chain = Promise.resolve();
    const answer = async (raw: string) => {
      const line = raw.trim();
      if (quitting) return;
      if (line) historyFile?.append(line);
      if (line === '/quit' || line === '/exit') {
        quitting = true;
        return rl.close();
      }
      if (line === '/help') ctx.line(HELP);
      else if (line) await session.handle(line);
      if (!inputEnded) rl.prompt();
    };
    rl.on('SIGINT', () => {
      if (session.busy) return session.interrupt();
      if (rl.line) {
        clearLine(rl);
        armedQuit = false;
        return;
      }
      if (armedQuit) return rl.close();
      armedQuit = true;
      ctx.line(`\n${s.dim('(Ctrl-C again or Ctrl-D to quit)')}`);
      rl.prompt();
    });
    rl.on('line', (line) => {
      armedQuit = false;
      chain = chain.then(() => answer(line));
    });
    rl.on('close', () => {
      inputEnded = true;
      chain = chain.then(() => {
        ctx.line(s.dim('bye'));
        resolve(EXIT_OK);
      });
    });
    rl.prompt();
  });
}

function clearLine(rl: Interface): void {
  rl.write(null, { ctrl: true, name: 'e' });
  rl.write(null, { ctrl: true, name: 'u' });
}
