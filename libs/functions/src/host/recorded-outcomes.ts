import { createHash } from 'node:crypto';
import type { KvBucket } from '@app/bus';
import {
  AppError,
  type ErrorBody,
  type FunctionResult,
  IdempotencyConflictError,
  UnavailableError,
} from '@app/contracts';
import type { Logger } from '@app/observability';
import { toCallError } from './call-outcome';

/** What one key's first attempt did: its result or its error, exactly as its caller got it. */
type Outcome = { status: 'success'; result: FunctionResult } | { status: 'error'; error: ErrorBody };

/** A key's entry: claimed by an attempt that answers by `until` (epoch ms), then its outcome. */
type Entry =
  | { state: 'running'; params_hash: string; until: number }
  | { state: 'done'; params_hash: string; outcome: Outcome };

/** One keyed call, as the executor hands it over once its slot is free. */
export interface KeyedCall {
  name: string;
  key: string;
  principal?: string;
  params: unknown;
  /** Whether the function may run again when its first attempt's provider died with it. */
  idempotent: boolean;
  /** When this attempt must answer (epoch ms); its signal aborts then, or on cancel. */
  deadline: number;
  signal: AbortSignal;
}

/** One attempt of a keyed call: where its key lives, and what it claims it with. */
interface Attempt {
  bucket: KvBucket;
  key: string;
  call: KeyedCall;
  claim: Entry;
  work: () => Promise<FunctionResult>;
}

/** How long past its own deadline an attempt's claim is trusted: a live provider records by then. */
const STALE_AFTER_MS = 5_000;

/**
 * Runs a call sent with an idempotency key at most once across all replicas of all providers:
 * the first attempt claims the key in a JetStream KV bucket and records its outcome there (success,
 * function error, timeout alike); a repeat gets that outcome, or waits for a running first
 * attempt. Without the store a keyed call of a function not declared idempotent fails
 * `unavailable` without running; an idempotent one runs unrecorded.
 */
export class RecordedOutcomes {
  private opening?: Promise<KvBucket>;

  constructor(
    private readonly open: () => Promise<KvBucket>,
    private readonly logger: Logger,
    private readonly redact: (text: string) => string,
  ) {}

  async once(call: KeyedCall, work: () => Promise<FunctionResult>): Promise<FunctionResult> {
    const bucket = await this.bucket().catch((err: unknown) => {
      // A function safe to repeat needs no guard to stay correct: without the store it runs as an
      // unkeyed call would, rather than failing. Any other keyed call must not run unguarded.
      if (!call.idempotent) throw err;
      this.logger.warn('the call outcome store is unreachable: an idempotent call runs unrecorded', {
        function: call.name,
      });
      return undefined;
    });
    if (!bucket) return work();
    const hash = paramsHash(call.params);
    const claim: Entry = { state: 'running', params_hash: hash, until: call.deadline };
    const attempt: Attempt = { bucket, key: entryKey(call), call, claim, work };
    const revision = await bucket.create(attempt.key, claim);
    return revision !== undefined ? this.first(attempt, revision) : this.repeat(attempt);
  }

  private async first(
    { bucket, key, call, claim, work }: Attempt,
    revision: number,
  ): Promise<FunctionResult> {
    let outcome: Outcome;
    try {
      outcome = { status: 'success', result: await work() };
    } catch (err) {
      outcome = { status: 'error', error: toCallError(err, this.redact).toBody() };
    }
    const hash = claim.params_hash;
    // Cut off by its provider (shutting down): an idempotent function is left for a repeat to run.
    const next: Entry =
      call.idempotent && outcome.status === 'error' && outcome.error.code === 'unavailable'
        ? { state: 'running', params_hash: hash, until: 0 }
        : { state: 'done', params_hash: hash, outcome };
    // The effect happened: its caller gets the outcome even if recording it fails.
    const recorded = await bucket.update(key, next, revision).catch((err: unknown) => {
      this.logger.warn('could not record a keyed call’s outcome', { err, fn: call.name });
      return null;
    });
    if (recorded === undefined)
      this.logger.warn('a keyed call’s claim was taken over before it finished', { fn: call.name });
    return unwrap(outcome);
  }

  private async repeat(attempt: Attempt): Promise<FunctionResult> {
    const { bucket, key, call, claim } = attempt;
    // the usual repeat finds the outcome there: no need to watch for it
    const recorded = (await bucket.get(key))?.value as Entry | undefined;
    if (recorded?.state === 'done') return replay(recorded, claim.params_hash, call.key);
    let wake = () => undefined as void;
    const stop = await bucket.watch(key, () => wake());
    try {
      for (;;) {
        // armed before the read: a write landing after it still wakes this attempt
        const written = new Promise<void>((resolve) => (wake = resolve));
        const entry = await bucket.get(key);
        if (!entry) {
          // expired between the claim and the read: this attempt may claim it afresh
          const revision = await bucket.create(key, claim);
          if (revision !== undefined) return this.first(attempt, revision);
          continue;
        }
        const held = entry.value as Entry;
        if (held.state === 'done') return replay(held, claim.params_hash, call.key);
        if (held.params_hash !== claim.params_hash) throw new IdempotencyConflictError(call.key);
        const staleIn = held.until + STALE_AFTER_MS - Date.now();
        if (staleIn <= 0) {
          const taken = await this.takeOver(attempt, entry.revision);
          if (taken) return taken;
          continue;
        }
        await untilAny(written, staleIn, call.signal);
      }
    } finally {
      stop();
    }
  }

  /**
   * The first attempt's provider died with it: an idempotent function runs again; any other is
   * answered `unavailable`, recorded, since whether its effect happened cannot be known.
   */
  private async takeOver(attempt: Attempt, revision: number): Promise<FunctionResult | undefined> {
    const { bucket, key, call, claim } = attempt;
    if (call.idempotent) {
      const mine = await bucket.update(key, claim, revision);
      return mine === undefined ? undefined : this.first(attempt, mine);
    }
    const error = new UnavailableError(
      `an earlier attempt of '${call.name}' with this idempotency key was interrupted; whether it took effect is unknown, so it is not run again`,
    );
    const done: Entry = {
      state: 'done',
      params_hash: claim.params_hash,
      outcome: { status: 'error', error: error.toBody() },
    };
    if ((await bucket.update(key, done, revision)) === undefined) return undefined;
    throw error;
  }

  /**
   * Opens the store now rather than at the first keyed call, so that its settings (a cluster's
   * replicas) are applied, and can be checked, from the start; a failure is retried on first use.
   */
  prepare(): void {
    // debug only: nothing is lost (the first keyed call tries again and says so if it cannot), and
    // a process failing at start must not have this as its last line instead of its real cause
    this.bucket().catch((err: unknown) =>
      this.logger.debug('the call outcome store could not be opened yet', { error: (err as Error).message }),
    );
  }

  private bucket(): Promise<KvBucket> {
    this.opening ??= this.open().catch((err: unknown) => {
      this.opening = undefined;
      throw err instanceof AppError ? err : new UnavailableError('the call outcome store is unreachable');
    });
    return this.opening;
  }
}

/** A repeat with other params is refused: the key names one call, not a slot any call may take. */
function replay(done: Entry & { state: 'done' }, paramsHash: string, key: string): FunctionResult {
  if (done.params_hash !== paramsHash) throw new IdempotencyConflictError(key);
  return unwrap(done.outcome);
}

function unwrap(outcome: Outcome): FunctionResult {
  if (outcome.status === 'success') return outcome.result;
  throw AppError.fromBody(outcome.error);
}

/** Per function and principal: one client's key can never replay another's outcome. */
function entryKey(call: KeyedCall): string {
  const digest = createHash('sha256')
    .update(`${call.principal ?? ''}\n${call.key}`)
    .digest('base64url');
  return `${call.name}.${digest}`;
}

function paramsHash(params: unknown): string {
  return createHash('sha256').update(canonicalJson(params)).digest('base64url');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const keys = Object.keys(value).sort();
    const fields = keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as never)[k])}`);
    return `{${fields.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Resolves when `changed` does or `ms` pass; rejects with the signal's reason when it aborts. */
function untilAny(changed: Promise<unknown>, ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => finish(() => reject(signal.reason));
    const timer = setTimeout(() => finish(resolve), ms);
    const finish = (settle: () => void) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      settle();
    };
    signal.addEventListener('abort', onAbort, { once: true });
    void changed.then(() => finish(resolve));
  });
}
