import { Routes, type FunctionCallEvent } from '@app/contracts';
import type { Bus } from '@app/bus';
import type { Logger } from '@app/observability';

export interface CallRecordOptions {
  maxBatch?: number;
  flushMs?: number;
  maxBuffered?: number;
  /** How long a batch waits for its recorder; `fn.calls.record`'s route says by default. */
  timeoutMs?: number;
}

const WARN_EVERY_MS = 30_000;
/**
 * How long a batch gathers before it is sent. Records are held in memory meanwhile (flushed on a
 * graceful stop, lost if the provider is killed): a longer window would send fewer batches (250 ms:
 * 0.1 instead of 0.29 requests a deployed chat turn, ~2% of its messages) but widen what a kill -9
 * loses five times, so it stays short.
 */
const FLUSH_MS = 50;

/**
 * Hands finished calls to a recorder (the agent-executor writes them to the database; a provider
 * never touches it). Calls are batched; when no recorder answers, records are dropped and that
 * is said in the log, at most every 30 s, rather than slowing calls down.
 */
export class CallRecordPublisher {
  private buffer: FunctionCallEvent[] = [];
  private timer?: NodeJS.Timeout;
  private sending?: Promise<void>;
  private dropped = 0;
  private lastWarning = 0;
  private readonly maxBatch: number;
  private readonly flushMs: number;
  private readonly maxBuffered: number;
  private readonly timeoutMs?: number;

  constructor(
    private readonly bus: Bus,
    private readonly logger: Logger,
    options: CallRecordOptions = {},
  ) {
    this.maxBatch = options.maxBatch ?? 200;
    this.flushMs = options.flushMs ?? FLUSH_MS;
    this.maxBuffered = options.maxBuffered ?? 5_000;
    this.timeoutMs = options.timeoutMs;
  }

  add(event: FunctionCallEvent): void {
    if (this.buffer.length >= this.maxBuffered) return this.lost(1, 'too many records waiting');
    this.buffer.push(event);
    if (!this.timer && !this.sending) {
      this.timer = setTimeout(() => void this.flush(), this.flushMs);
      this.timer.unref();
    }
  }

  /** Sends everything buffered; resolves when the recorder answered or gave up. */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.sending) return this.sending.then(() => this.flush());
    if (this.buffer.length === 0) return;
    this.sending = this.sendAll().finally(() => (this.sending = undefined));
    return this.sending;
  }

  private async sendAll(): Promise<void> {
    while (this.buffer.length > 0) {
      const calls = this.buffer.splice(0, this.maxBatch);
      await this.bus
        .request(Routes.fnCallsRecord, { calls }, { timeoutMs: this.timeoutMs })
        .catch((err: unknown) => this.lost(calls.length, (err as Error).message));
    }
  }

  private lost(count: number, reason: string): void {
    this.dropped += count;
    if (Date.now() - this.lastWarning < WARN_EVERY_MS) return;
    this.lastWarning = Date.now();
    this.logger.warn('function call records were not recorded (is an agent-executor running?)', {
      dropped: this.dropped,
      reason,
    });
    this.dropped = 0;
  }
}
