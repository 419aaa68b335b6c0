import { type Bus, NatsUnavailableError, type Subscription } from '@app/bus';
import {
  Events,
  type FnCatalogReply,
  type FunctionDefinition,
  NotFoundError,
  Routes,
  UnavailableError,
} from '@app/contracts';

const MISS_REFRESH_MS = 1_000;
/** A provider that died without announcing it drops out of every catalogue within this. */
const DEFAULT_TTL_MS = 5_000;

/** The defaults suit every app; one that overrides a setting says why beside it. */
export interface CatalogOptions {
  /** How long to collect answers from providers; `fn.catalog`'s route says by default. */
  gatherMs?: number;
  /** How long a gathered catalogue is reused when no provider announces a change (5 s). */
  ttlMs?: number;
}

/**
 * Every provider's definitions, gathered over `fn.catalog` and deduplicated by name (replicas
 * and providers answer alike; on a name clash the provider first in `provider/instance` order
 * wins, so every reader agrees). Cached until a provider announces a change or the TTL ends, so
 * a provider that died without saying so drops out within the TTL; past the TTL the old copy is
 * served while a fresh one is gathered. An empty catalogue (nobody answered yet, e.g. right after
 * a restart) is never listed without gathering again, nor trusted for a lookup for more than a
 * second. The gateway, the scheduler and the executor all read functions through this class.
 */
export class FunctionCatalog {
  /**
   * `gathering`: the number of the gathering that made it (they are numbered as they are sent: a
   * clock's millisecond can hold a whole gathering and the next ask); `at`: when it ended.
   */
  private cache?: { gathering: number; at: number; byName: Map<string, FunctionDefinition> };
  /** How many gatherings were sent so far. */
  private gatherings = 0;
  private loading?: Promise<Map<string, FunctionDefinition>>;
  private generation = 0;
  private subscription?: Subscription;
  /** Every name a provider has listed or announced since this process started, with that provider. */
  private readonly seen = new Map<string, string>();
  /** The providers that answered the latest gathering. */
  private answering = new Set<string>();
  private readonly gatherMs?: number;
  private readonly ttlMs: number;

  constructor(
    private readonly bus: Bus,
    options: CatalogOptions = {},
  ) {
    this.gatherMs = options.gatherMs;
    this.ttlMs = options.ttlMs ?? DEFAULT_TTL_MS;
  }

  start(): void {
    this.subscription ??= this.bus.subscribe(Events.fnAnnounce, (announced) => {
      this.remember(announced);
      this.invalidate();
    });
  }

  stop(): void {
    this.subscription?.unsubscribe();
    this.subscription = undefined;
  }

  invalidate(): void {
    this.generation += 1;
    this.cache = undefined;
  }

  /** Every definition by name, in name order. */
  byName(): Promise<ReadonlyMap<string, FunctionDefinition>> {
    return this.load();
  }

  /**
   * Every definition, in name order (so prompts are stable). Nobody is told there are no functions
   * from a gathering sent before they asked: right after a start the providers may not have
   * answered the first one yet.
   */
  async list(): Promise<FunctionDefinition[]> {
    const sentBefore = this.gatherings;
    let byName = await this.load();
    if (byName.size === 0 && !(this.cache?.byName === byName && this.cache.gathering > sentBefore))
      byName = await this.refresh();
    return [...byName.values()];
  }

  /** A name missing from a catalogue older than a second is looked up afresh, once. */
  async get(name: string): Promise<FunctionDefinition | undefined> {
    const found = (await this.load()).get(name);
    if (found || !this.cache || Date.now() - this.cache.at < MISS_REFRESH_MS) return found;
    this.invalidate();
    return (await this.load()).get(name);
  }

  /** Gathers afresh now (e.g. on start), whatever the cache holds. */
  refresh(): Promise<Map<string, FunctionDefinition>> {
    this.invalidate();
    return this.load();
  }

  /**
   * The definition, or why there is none: NATS unreachable, or a function whose provider does not
   * answer right now, is `unavailable` (503); only a name no answering provider lists, and none
   * ever announced, is `not_found`.
   */
  async require(name: string): Promise<FunctionDefinition> {
    if (!this.bus.connected) throw new NatsUnavailableError('functions cannot be looked up or called');
    const found = await this.get(name);
    if (found) return found;
    const provider = this.seen.get(name);
    if (provider && !this.answering.has(provider)) {
      throw new UnavailableError(
        `function '${name}' is unavailable: its provider (${provider}) does not answer right now`,
        { part: provider, function: name },
      );
    }
    if (this.answering.size === 0) {
      throw new UnavailableError(
        `function '${name}' is unavailable: no function provider answers right now`,
        {
          part: 'function providers',
          function: name,
        },
      );
    }
    throw new NotFoundError('function', name);
  }

  private remember(reply: FnCatalogReply): void {
    for (const definition of reply.functions ?? []) this.seen.set(definition.name, reply.provider);
  }

  private load(): Promise<Map<string, FunctionDefinition>> {
    const age = this.cache ? Date.now() - this.cache.at : Infinity;
    const empty = this.cache?.byName.size === 0;
    if (this.cache && age < (empty ? Math.min(MISS_REFRESH_MS, this.ttlMs) : this.ttlMs)) {
      return Promise.resolve(this.cache.byName);
    }
    const reload = this.reload();
    if (!this.cache || empty) return reload;
    // Stale but not empty: answer with it now; the fresh copy replaces it when it arrives.
    reload.catch(() => undefined);
    return Promise.resolve(this.cache.byName);
  }

  private reload(): Promise<Map<string, FunctionDefinition>> {
    if (!this.loading) {
      const generation = this.generation;
      const gathering = ++this.gatherings;
      this.loading = this.gather()
        .then((byName) => {
          if (generation === this.generation) this.cache = { gathering, at: Date.now(), byName };
          return byName;
        })
        .finally(() => (this.loading = undefined));
    }
    return this.loading;
  }

  private async gather(): Promise<Map<string, FunctionDefinition>> {
    const replies = await this.bus.gather(Routes.fnCatalog, this.gatherMs);
    replies.sort((a, b) => `${a.provider}/${a.instance}`.localeCompare(`${b.provider}/${b.instance}`));
    this.answering = new Set(replies.map((reply) => reply.provider));
    replies.forEach((reply) => this.remember(reply));
    const byName = new Map<string, FunctionDefinition>();
    for (const reply of replies) {
      for (const definition of reply.functions ?? [])
        if (!byName.has(definition.name)) byName.set(definition.name, definition);
    }
    return new Map([...byName].sort(([a], [b]) => a.localeCompare(b)));
  }
}
