/**
 * One command for the scripted model:
 *   node dist/libs/testing/src/scripted-llm/main.js --port 4010 --script script.json --latency 1000
 * A tool, not a service: it reads argv directly.
 */
import { parseCliArgs } from './cli-args';
import { startScriptedLlm } from './scripted-llm.server';

async function main(): Promise<void> {
  const options = parseCliArgs(process.argv.slice(2));
  if ('help' in options) return void process.stdout.write(`${options.help}\n`);
  const llm = await startScriptedLlm(options);
  process.stdout.write(
    `scripted-llm listening on ${llm.url} (OpenAI and Anthropic formats; PUT /_script, GET /_requests${options.promptCache ? '; prompt cache emulated' : ''})\n`,
  );
  const stop = () => void llm.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
