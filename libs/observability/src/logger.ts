import type { LoggerService } from '@nestjs/common';
import { Redactor } from './redact';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFields = Record<string, unknown>;

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface LoggerOptions {
  service: string;
  level: LogLevel;
  format: 'json' | 'text';
  redactor?: Redactor;
  write?: (line: string) => void;
  /** Fields added to every line, e.g. the trace context of the current request. */
  context?: () => LogFields | undefined;
}

/** One structured logger for every service: JSON or text lines, levels, central redaction. */
export class Logger implements LoggerService {
  private readonly redactor: Redactor;
  private readonly write: (line: string) => void;

  constructor(
    private readonly options: LoggerOptions,
    private readonly bound: LogFields = {},
  ) {
    this.redactor = options.redactor ?? new Redactor();
    this.write = options.write ?? ((line) => process.stdout.write(`${line}\n`));
  }

  child(fields: LogFields): Logger {
    return new Logger(this.options, { ...this.bound, ...fields });
  }

  enabled(level: LogLevel): boolean {
    return RANK[level] >= RANK[this.options.level];
  }

  debug(msg: string, fields?: LogFields): void {
    this.emit('debug', msg, fields);
  }

  info(msg: string, fields?: LogFields): void {
    this.emit('info', msg, fields);
  }

  warn(msg: string, fields?: LogFields): void {
    this.emit('warn', msg, fields);
  }

  error(msg: string, fields?: LogFields | unknown): void {
    this.emit('error', msg, isFields(fields) ? fields : fields === undefined ? undefined : { err: fields });
  }

  /** NestJS's own chatter (routes mapped, modules loaded) is debug-level for us. */
  log(message: unknown, context?: string): void {
    this.emit('debug', String(message), context ? { nest: context } : undefined);
  }

  verbose(message: unknown, context?: string): void {
    this.emit('debug', String(message), context ? { nest: context } : undefined);
  }

  private emit(level: LogLevel, msg: string, fields?: LogFields): void {
    if (!this.enabled(level)) return;
    const record: LogFields = {
      time: new Date().toISOString(),
      level,
      service: this.options.service,
      msg,
      ...this.options.context?.(),
      ...this.bound,
      ...normalise(fields),
    };
    const line = this.options.format === 'json' ? JSON.stringify(record) : toText(record);
    this.write(this.redactor.redact(line));
  }
}

function isFields(value: unknown): value is LogFields {
  return typeof value === 'object' && value !== null && !(value instanceof Error) && !Array.isArray(value);
}

function normalise(fields?: LogFields): LogFields {
  if (!fields) return {};
  const out: LogFields = {};
  for (const [key, value] of Object.entries(fields)) {
    out[key] =
      value instanceof Error
        ? { name: value.name, message: value.message, code: (value as { code?: unknown }).code }
        : value;
  }
  return out;
}

function toText(record: LogFields): string {
  const { time, level, service, msg, ...rest } = record;
  const extras = Object.entries(rest)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${typeof v === 'string' && !/\s/.test(v) ? v : JSON.stringify(v)}`)
    .join(' ');
  return `${String(time)} ${String(level).toUpperCase().padEnd(5)} [${String(service)}] ${String(msg)}${extras ? ` ${extras}` : ''}`;
}
