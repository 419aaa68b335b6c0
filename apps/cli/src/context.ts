import { type Command, InvalidArgumentError } from 'commander';
import { AgentChassisClient } from '@app/client';
import type { Terminal } from './chat-printer';
import { compact, createStyle, type Style } from './style';

export interface CliEnv {
  AC_URL?: string;
  AC_API_KEY?: string;
  NO_COLOR?: string;
  HOME?: string;
}

export interface CliIo {
  out: Terminal;
  err: Terminal;
  input: NodeJS.ReadableStream & { isTTY?: boolean };
  /** Calls `handler` on Ctrl-C (SIGINT) until the returned function is called. */
  onInterrupt?(handler: () => void): () => void;
}

/** What every command gets: the client for the global options, the streams and their styles. */
export class CliContext {
  readonly style: Style;
  readonly errStyle: Style;
  /** What the process exits with when the command ends without an error. */
  exitCode = 0;

  constructor(
    readonly io: CliIo,
    readonly env: CliEnv,
  ) {
    this.style = createStyle(io.out.isTTY, env.NO_COLOR);
    this.errStyle = createStyle(io.err.isTTY, env.NO_COLOR);
  }

  client(command: Command): AgentChassisClient {
    const { url, key } = command.optsWithGlobals<{ url?: string; key?: string }>();
    return new AgentChassisClient({
      baseUrl: url ?? this.env.AC_URL ?? 'http://127.0.0.1:3000',
      apiKey: key ?? this.env.AC_API_KEY,
    });
  }

  line(text = ''): void {
    this.io.out.write(`${text}\n`);
  }

  json(value: unknown): void {
    this.io.out.write(`${JSON.stringify(value, null, 2)}\n`);
  }

  /** A value for a person: JSON text for objects, the string itself for text. */
  show(value: unknown): void {
    if (typeof value === 'string') this.line(value);
    else this.json(value);
  }

  warn(text: string): void {
    this.io.err.write(`${text}\n`);
  }
}

/** Parses a `--params` style JSON object argument, with a message naming the option. */
export function jsonObject(option: string, text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`${option} is not valid JSON: ${(err as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new UsageError(`${option} must be a JSON object, e.g. '{"to":"ops","message":"hi"}'`);
  return value as Record<string, unknown>;
}

/** A mistake in the command line itself (exit 1, no API call made). */
export class UsageError extends Error {}

/** A whole-number option, refused as the option's own error. */
export function integer(option: string, value: string): number {
  if (!/^\d+$/.test(value))
    throw new InvalidArgumentError(`${option} must be a whole number, not '${compact(value, 40)}'`);
  return Number(value);
}
