import type { LoggerService } from '@nestjs/common';
import pino, { type DestinationStream, type Logger as Pino } from 'pino';
import { Redactor } from './redact';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFields = Record<string, unknown>;

export interface LoggerOptions {
  service: string;
  level: LogLevel;
  format: 'json' | 'text';
  redactor?: Redactor;
  /** Receives each line (without its newline) as it is logged; stdout when absent. */
  write?: (line: string) => void;
  /** Fields added to every line, e.g. the trace context of the current request. */
  context?: () => LogFields | undefined;
}

/**
 * One structured logger for every service, on pino: JSON or text lines, levels, central redaction
 * of every line, and logged errors with their stack. Lines are written to stdout as they are
 * logged, so none is lost when the process stops; NestJS logs through it too.
 */
export class Logger implements LoggerService {
  constructor(
    private readonly options: LoggerOptions,
    private readonly pino: Pino = rootLogger(options),
  ) {}

  child(fields: LogFields): Logger {
    return new Logger(this.options, this.pino.child(normalise(fields)));
  }

  enabled(level: LogLevel): boolean {
    return this.pino.isLevelEnabled(level);
  }

  // A string in place of the fields is the context NestJS names its lines with.
  debug(msg: string, fields?: LogFields | string): void {
    this.emit('debug', msg, fieldsOf(fields));
  }

  info(msg: string, fields?: LogFields | string): void {
    this.emit('info', msg, fieldsOf(fields));
  }

  warn(msg: string, fields?: LogFields | string): void {
    this.emit('warn', msg, fieldsOf(fields));
  }

  /** Anything but fields is the error itself (NestJS: its stack, then its context). */
  error(msg: string, fields?: LogFields | unknown, context?: string): void {
    const own = isFields(fields) ? fields : fields === undefined ? undefined : { err: fields };
    this.emit('error', msg, context ? { ...own, nest: context } : own);
  }

  /** NestJS's own chatter (routes mapped, modules loaded) is debug-level for us. */
  log(message: unknown, context?: string): void {
    this.emit('debug', String(message), fieldsOf(context));
  }

  verbose(message: unknown, context?: string): void {
    this.emit('debug', String(message), fieldsOf(context));
  }

  private emit(level: LogLevel, msg: string, fields?: LogFields): void {
    if (!this.pino.isLevelEnabled(level)) return;
    if (fields) this.pino[level](normalise(fields), msg);
    else this.pino[level](msg);
  }
}

function rootLogger(options: LoggerOptions): Pino {
  const context = options.context;
  return pino(
    {
      level: options.level,
      base: { service: options.service },
      messageKey: 'msg',
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      // normalise() has serialised every error already, whatever its key.
      serializers: { err: (err: unknown) => err },
      ...(context ? { mixin: () => context() ?? {} } : {}),
    },
    destination(options),
  );
}

/** Every line is redacted as written, so secrets added to the redactor later are masked too. */
function destination(options: LoggerOptions): DestinationStream {
  const redactor = options.redactor ?? new Redactor();
  const render = options.format === 'text' ? (line: string) => toText(JSON.parse(line)) : trimNewline;
  const write = options.write;
  if (write) return { write: (line) => write(redactor.redact(render(line))) };
  const out = stdout();
  return { write: (line) => out.write(`${redactor.redact(render(line))}\n`) };
}

let shared: DestinationStream | undefined;

/**
 * One stdout stream per process, written synchronously: a service stopped by a signal (Nest
 * re-raises SIGTERM once its shutdown hooks ran) or crashing gets no chance to flush a buffer, and
 * its last lines are the ones an operator needs. Measured, the asynchronous mode saved nothing
 * here (docs/benchmarks.md, Logging).
 */
function stdout(): DestinationStream {
  shared ??= pino.destination({ dest: 1, sync: true });
  return shared;
}

function trimNewline(line: string): string {
  return line.endsWith('\n') ? line.slice(0, -1) : line;
}

function fieldsOf(fields: LogFields | string | undefined): LogFields | undefined {
  return typeof fields === 'string' ? { nest: fields } : fields;
}

function isFields(value: unknown): value is LogFields {
  return typeof value === 'object' && value !== null && !(value instanceof Error) && !Array.isArray(value);
}

/** An error, under any key, keeps its type, message, code and stack (and its cause's). */
function normalise(fields: LogFields): LogFields {
  let out: LogFields | undefined;
  for (const [key, value] of Object.entries(fields)) {
    if (!(value instanceof Error)) continue;
    out ??= { ...fields };
    out[key] = pino.stdSerializers.errWithCause(value);
  }
  return out ?? fields;
}

function toText(record: LogFields): string {
  const { time, level, service, msg, ...rest } = record;
  const extras = Object.entries(rest)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${typeof v === 'string' && !/\s/.test(v) ? v : JSON.stringify(v)}`)
    .join(' ');
  return `${String(time)} ${String(level).toUpperCase().padEnd(5)} [${String(service)}] ${String(msg)}${extras ? ` ${extras}` : ''}`;
}
