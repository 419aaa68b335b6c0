import { parseArgs } from 'node:util';

/** The options of a command line, as node:util parseArgs takes them (every one a long flag). */
export type CommandLineOptions = Record<
  string,
  { type: 'string' | 'boolean'; short?: string; multiple?: boolean }
>;

export interface CommandLineSpec {
  /** One line: `usage: <command> ...`. */
  usage: string;
  /** What the command does and what each option means, printed after the usage by --help. */
  help?: string;
  options?: CommandLineOptions;
  /** How many positional arguments the command takes (default none). */
  positionals?: { min?: number; max?: number };
}

export type ParsedCommandLine =
  | { help: true; text: string }
  | {
      help: false;
      values: Record<string, string | boolean | (string | boolean)[] | undefined>;
      positionals: string[];
    };

/** A command line the command cannot take: one line, fit for the terminal. */
export class CommandLineError extends Error {
  constructor(message: string, usage: string) {
    super(`${message} (${usage})`);
    this.name = 'CommandLineError';
  }
}

/** A word a user meant as an option, not as a name or a value: `--help`, `-h`, `--scopes=chat`. */
export function looksLikeOption(word: string): boolean {
  return /^--?[A-Za-z][\w-]*(=\S*)?$/.test(word);
}

/**
 * The one parser of the repository's small commands (keys:create, db:migrate, the scripted LLM):
 * `--help` / `-h` answer the usage; an unknown option, a missing value or a stray argument is a
 * CommandLineError; a name or value that looks like an option (`keys:create -- --help`) is refused
 * rather than taken as a name.
 */
export function parseCommandLine(argv: string[], spec: CommandLineSpec): ParsedCommandLine {
  const options = { ...spec.options, help: { type: 'boolean' as const, short: 'h' } };
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new CommandLineError(firstLine((err as Error).message), spec.usage);
  }
  const { values, positionals } = parsed;
  if (values.help) return { help: true, text: [spec.usage, spec.help].filter(Boolean).join('\n\n') };
  for (const word of [...positionals, ...Object.values(values).flat()])
    if (typeof word === 'string' && looksLikeOption(word))
      throw new CommandLineError(`'${word}' looks like an option, not a name or a value`, spec.usage);
  const { min = 0, max = 0 } = spec.positionals ?? {};
  if (positionals.length < min) throw new CommandLineError('missing arguments', spec.usage);
  if (positionals.length > max)
    throw new CommandLineError(`unexpected argument '${positionals[max]}'`, spec.usage);
  delete values.help;
  return { help: false, values, positionals };
}

/** node's messages, without their multi-line hints: `Unknown option '--x'`. */
function firstLine(message: string): string {
  return message
    .split('\n')[0]
    .replace(/\. To specify a positional argument.*$/, '')
    .replace(/\.$/, '');
}
