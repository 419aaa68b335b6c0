import { readFileSync } from 'node:fs';
import { parseScript, type Script } from './script';

export interface CliOptions {
  port: number;
  host: string;
  script: Script;
  latencyMs: number;
  /** `--prompt-cache`: emulate a provider's prompt cache (real token counts, cached prefixes). */
  promptCache: boolean;
}

export const USAGE =
  'usage: scripted-llm [--port 4010] [--host 0.0.0.0] [--script file.json] [--latency ms] [--prompt-cache]';

/** `--flag value` or `--flag=value`; throws with a message fit for the terminal. */
export function parseCliArgs(
  argv: string[],
  readFile = (path: string) => readFileSync(path, 'utf8'),
): CliOptions {
  const options: CliOptions = { port: 4010, host: '0.0.0.0', script: {}, latencyMs: 0, promptCache: false };
  for (let i = 0; i < argv.length; i += 1) {
    const [flag, inline] = splitFlag(argv[i]);
    const value = () => inline ?? argv[++i] ?? fail(`${flag} needs a value`);
    if (flag === '--port') options.port = toNumber(value(), flag);
    else if (flag === '--host') options.host = value();
    else if (flag === '--latency') options.latencyMs = toNumber(value(), flag);
    else if (flag === '--script') options.script = readScript(value(), readFile);
    else if (flag === '--prompt-cache') options.promptCache = true;
    else if (flag === '--help' || flag === '-h') fail(USAGE);
    else fail(`unknown option ${flag}\n${USAGE}`);
  }
  return options;
}

function splitFlag(arg: string): [string, string | undefined] {
  const at = arg.indexOf('=');
  return at < 0 ? [arg, undefined] : [arg.slice(0, at), arg.slice(at + 1)];
}

function readScript(path: string, readFile: (path: string) => string): Script {
  try {
    return parseScript(JSON.parse(readFile(path)));
  } catch (error) {
    return fail(`--script ${path}: ${(error as Error).message}`);
  }
}

function toNumber(text: string, flag: string): number {
  const number = Number(text);
  if (!Number.isInteger(number) || number < 0) fail(`${flag} must be a non-negative integer, got ${text}`);
  return number;
}

function fail(message: string): never {
  throw new Error(message);
}
