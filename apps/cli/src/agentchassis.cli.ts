#!/usr/bin/env node
import { CliContext } from './context';
import { runCli } from './program';

/** `agentchassis`: the only place the command line reads its environment. */
async function main(): Promise<void> {
  const ctx = new CliContext(
    {
      out: process.stdout,
      err: process.stderr,
      input: process.stdin,
      onInterrupt: (handler) => {
        process.on('SIGINT', handler);
        return () => process.off('SIGINT', handler);
      },
    },
    {
      AC_URL: process.env.AC_URL,
      AC_API_KEY: process.env.AC_API_KEY,
      NO_COLOR: process.env.NO_COLOR,
      HOME: process.env.HOME,
    },
  );
  process.exitCode = await runCli(ctx, process.argv.slice(2));
}

void main();
