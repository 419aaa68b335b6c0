import { readFileSync } from 'node:fs';
import { CommandLineError, parseCommandLine } from '@app/config';
import { parseScript, type Script } from './script';

export interface CliOptions {
  port: number;
  host: string;
  script: Script;
  latencyMs: number;
  /** `--prompt-cache`: emulate a provider's prompt cache (real token counts, cached prefixes). */
  promptCache: boolean;
}

const COMMAND_LINE = {
  usage:
    'usage: npm run llm:scripted -- [--port 4010] [--host 0.0.0.0] [--script file.json] [--latency ms] [--prompt-cache]',
  help: [
    'A model server for tests and demos: OpenAI and Anthropic wire formats, replies from a script.',
    '  --port, --host   where it listens (port 0: any free port)',
    '  --script         a JSON script (see examples/scripted-llm); PUT /_script replaces it',
    '  --latency        milliseconds before each reply',
    "  --prompt-cache   emulate a provider's prompt cache",
  ].join('\n'),
  options: {
    port: { type: 'string' },
    host: { type: 'string' },
    script: { type: 'string' },
    latency: { type: 'string' },
    'prompt-cache': { type: 'boolean' },
  },
} as const;

/** The options, or `{ help }` for --help; throws a one-line CommandLineError for what it cannot take. */
export function parseCliArgs(
  argv: string[],
  readFile = (path: string) => readFileSync(path, 'utf8'),
): CliOptions | { help: string } {
  const line = parseCommandLine(argv, COMMAND_LINE);
  if (line.help) return { help: line.text };
  const values = line.values as Record<string, string | undefined>;
  return {
    port: values.port === undefined ? 4010 : toNumber(values.port, '--port'),
    host: values.host ?? '0.0.0.0',
    script: values.script === undefined ? {} : readScript(values.script, readFile),
    latencyMs: values.latency === undefined ? 0 : toNumber(values.latency, '--latency'),
    promptCache: line.values['prompt-cache'] === true,
  };
}

function readScript(path: string, readFile: (path: string) => string): Script {
  try {
    return parseScript(JSON.parse(readFile(path)));
  } catch (error) {
    throw new CommandLineError(`--script ${path}: ${(error as Error).message}`, COMMAND_LINE.usage);
  }
}

function toNumber(text: string, flag: string): number {
  const number = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(number))
    throw new CommandLineError(`${flag} must be a non-negative integer, got ${text}`, COMMAND_LINE.usage);
  return number;
}
