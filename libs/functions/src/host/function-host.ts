import { ACK_AFTER_MS, type Bus, type HandlerContext, KvBucket, type Subscription } from '@app/bus';
import {
  Buckets,
  type FnAnnounce,
  type FnCatalogReply,
  FnCancel,
  type FnExecProgress,
  FN_HEARTBEAT_MS,
  type FnExecRequest,
  parseDto,
  QueueGroups,
  Routes,
  Events,
  UnavailableError,
} from '@app/contracts';
import type { Logger } from '@app/observability';
import { CallRecordPublisher } from '../calls/call-record.publisher';
import { initialiseCallMetrics } from './call-metrics';
import { ConcurrencyLimiter } from './concurrency-limiter';
import { FunctionExecutor } from './function-executor';
import type { FunctionRegistry } from './function-registry';
import { RecordedOutcomes } from './recorded-outcomes';

export interface FunctionHostOptions {
  bus: Bus;
  registry: FunctionRegistry;
  logger: Logger;
  /** The serving service (`function-runner`, `scheduler`): its replicas form one queue group. */
  provider: string;
  instance: string;
  /** Calls running at once on this replica. */
  concurrency: number;
  redact?: (text: string) => string;
  /** How long the outcome of a call sent with an idempotency key is kept (ms); 24 h by default. */
  outcomeTtlMs?: number;
}

const HEADROOM_BYTES = 4_096;
const DAY_MS = 86_400_000;
/**
 * A call still running this long after it was taken says who holds it. Sooner than the bus's own
 * acknowledgement, so that this one message stands for it; a call that ends sooner (most do) sends
 * its reply alone, one message through the broker fewer.
 */
const FIRST_HEARTBEAT_MS = Math.floor(ACK_AFTER_MS / 2);

/**
 * Serves a registry over the bus: `fn.exec.<name>` per function in the provider's queue group,
 * `fn.catalog`, `fn.cancel`, and `fn.announce` on start, on every change and on stop. Any service
 * that provides functions (the runner, the scheduler) uses it.
 */
export class FunctionHost {
  private readonly subscriptions = new Map<string, Subscription>();
  private readonly shared: Subscription[] = [];
  private readonly executor: FunctionExecutor;
  private readonly records: CallRecordPublisher;
  private stopListening?: () => void;
  private stopping = false;
  private readonly bus: Bus;
  private readonly registry: FunctionRegistry;
  private readonly logger: Logger;
  private readonly provider: string;
  private readonly instance: string;
  private readonly outcomes: RecordedOutcomes;

  constructor(options: FunctionHostOptions) {
    this.bus = options.bus;
    this.registry = options.registry;
    this.logger = options.logger;
    this.provider = options.provider;
    this.instance = options.instance;
    this.records = new CallRecordPublisher(options.bus, options.logger);
    const redact = options.redact ?? ((text: string) => text);
    const ttlMs = options.outcomeTtlMs ?? DAY_MS;
    const outcomes = (this.outcomes = new RecordedOutcomes(
      () =>
        KvBucket.open(options.bus.connection, Buckets.fnOutcomes, {
          ttlMs,
          replicas: options.bus.jetstreamReplicas,
        }),
      options.logger,
      redact,
    ));
    this.executor = new FunctionExecutor({
      registry: options.registry,
      limiter: new ConcurrencyLimiter(options.concurrency),
      logger: options.logger,
      provider: options.provider,
      instance: options.instance,
      redact,
      maxResultBytes: (options.bus.connection.info?.max_payload ?? 1_048_576) - HEADROOM_BYTES,
      onFinished: (event) => this.records.add(event),
      outcomes,
    });
  }

  get inFlight(): number {
    return this.executor.inFlight;
  }

  async start(): Promise<void> {
    this.shared.push(
      this.bus.serve(Routes.fnCatalog, () => this.catalog()),
      this.bus.subscribe(Events.fnCancel, (cancel) => this.cancel(cancel)),
    );
    this.sync();
    initialiseCallMetrics(this.registry.names());
    this.stopListening = this.registry.onChange(() => void this.changed());
    await this.bus.flush();
    this.outcomes.prepare();
    this.announce('started');
  }

  /** Stops taking calls, lets running ones finish for up to `graceMs`, then aborts them. */
  async stop(graceMs: number): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    this.stopListening?.();
    for (const sub of this.subscriptions.values()) sub.unsubscribe();
    this.subscriptions.clear();
    this.announce('stopped');
    if (!(await settlesWithin(this.executor.whenIdle(), graceMs))) {
      this.executor.abortAll(new UnavailableError(`${this.provider} is shutting down`));
      await settlesWithin(this.executor.whenIdle(), 1_000);
    }
    for (const sub of this.shared.splice(0)) sub.unsubscribe();
    await this.records.flush();
  }

  catalog(): FnCatalogReply {
    const functions = this.stopping ? [] : this.registry.definitions();
    return { provider: this.provider, instance: this.instance, functions };
  }

  private async changed(): Promise<void> {
    this.sync();
    await this.bus.flush().catch(() => undefined);
    this.announce('changed');
  }

  private sync(): void {
    const names = new Set(this.registry.names());
    for (const [name, sub] of this.subscriptions) {
      if (names.has(name)) continue;
      sub.unsubscribe();
      this.subscriptions.delete(name);
    }
    const queue = QueueGroups.functionProviders(this.provider);
    for (const name of names) {
      if (this.subscriptions.has(name)) continue;
      const handler = async (request: FnExecRequest, ctx: HandlerContext) => {
        const stopBeating = this.heartbeat(ctx);
        try {
          return await this.executor.execute(name, request, ctx.headers.traceparent);
        } finally {
          stopBeating();
        }
      };
      this.subscriptions.set(name, this.bus.serve(Routes.fnExec(name), handler, { queue }));
    }
  }

  /**
   * Tells a caller that asked which instance holds its call, once the call has run
   * `FIRST_HEARTBEAT_MS` (the message then stands for the bus's acknowledgement, which is not
   * sent), and every `FN_HEARTBEAT_MS` after that while it runs.
   */
  private heartbeat(ctx: HandlerContext): () => void {
    const { progress } = ctx;
    if (!progress) return () => undefined;
    const alive: FnExecProgress = { provider: this.provider, instance: this.instance };
    let beating: NodeJS.Timeout | undefined;
    const first = setTimeout(() => {
      progress(alive);
      beating = setInterval(() => progress(alive), FN_HEARTBEAT_MS);
    }, FIRST_HEARTBEAT_MS);
    return () => {
      clearTimeout(first);
      clearInterval(beating);
    };
  }

  private cancel(data: unknown): void {
    try {
      this.executor.cancel(parseDto(FnCancel, data, 'cancel').call_id);
    } catch {
      // a malformed cancel names no call of ours
    }
  }

  private announce(event: FnAnnounce['event']): void {
    const body: FnAnnounce = { event, ...this.catalog() };
    try {
      this.bus.publish(Events.fnAnnounce, body);
    } catch (err) {
      this.logger.warn('could not announce the function catalogue', { err });
    }
  }
}

async function settlesWithin(work: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([work.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
