import type { AgentDefinition } from './agent-definition';
import { ConfigurationError } from './errors';
import type { ModelClient } from './model/model-client';
import type {
  Clock,
  EventSink,
  Functions,
  Hooks,
  MemoryStore,
  RunMetrics,
  RunJournal,
  SessionStore,
  SpendLedger,
} from './ports';
import { JSON_PLAN_PARSER, type PlanParser } from './strategies/plan-parser';

/** What a runtime is made of: the ports (model and functions required) and its settings. */
export interface RuntimeOptions {
  model: ModelClient;
  functions: Functions;
  journal?: RunJournal;
  hooks?: Hooks;
  /** Long-term memory: each run is offered `memory_retrieve` and `memory_expand` over it (`RunInput.memoryScope`). */
  memory?: MemoryStore;
  clock?: Clock;
  metrics?: RunMetrics;
  /** A budget outside each run that its model calls draw on (reserved before each call, settled after). */
  spend?: SpendLedger;
  /** Where sessions keep their history; in memory when absent. */
  sessions?: SessionStore;
  /** Receives every run's events, besides the stream `Agent.send` returns. */
  events?: EventSink;
  planParser?: PlanParser;
  /** Longest a run may take when its definition sets no `run_timeout` (default 120 s). */
  runTimeoutMs?: number;
}

const DEFAULT_RUN_TIMEOUT_MS = 120_000;

/** The bundle of ports and settings every agent of a host runs with. */
export class AgentRuntime {
  readonly planParser: PlanParser;
  readonly runTimeoutMs: number;

  private constructor(readonly ports: Readonly<RuntimeOptions>) {
    this.planParser = ports.planParser ?? JSON_PLAN_PARSER;
    this.runTimeoutMs = ports.runTimeoutMs ?? DEFAULT_RUN_TIMEOUT_MS;
  }

  static builder(): AgentRuntimeBuilder {
    return new AgentRuntimeBuilder();
  }

  /** Throws a `ConfigurationError` naming every missing required port. */
  static create(options: RuntimeOptions): AgentRuntime {
    const missing = (['model', 'functions'] as const).filter((port) => !options[port]);
    if (missing.length > 0)
      throw new ConfigurationError(`the agent runtime needs a ${missing.join(' and a ')} port`);
    if (options.runTimeoutMs !== undefined && !(options.runTimeoutMs > 0))
      throw new ConfigurationError('runTimeoutMs must be a positive number of milliseconds');
    return new AgentRuntime({ ...options });
  }

  /** A run's time limit: the definition's, never past the runtime's. */
  timeoutFor(definition: Pick<AgentDefinition, 'run_timeout'>): number {
    return Math.min(definition.run_timeout ?? Number.POSITIVE_INFINITY, this.runTimeoutMs);
  }
}

export function createRuntime(options: RuntimeOptions): AgentRuntime {
  return AgentRuntime.create(options);
}

export class AgentRuntimeBuilder {
  private readonly options: Partial<RuntimeOptions> = {};

  model(model: ModelClient): this {
    return this.set('model', model);
  }

  functions(functions: Functions): this {
    return this.set('functions', functions);
  }

  journal(journal: RunJournal): this {
    return this.set('journal', journal);
  }

  hooks(hooks: Hooks): this {
    return this.set('hooks', hooks);
  }

  memory(memory: MemoryStore): this {
    return this.set('memory', memory);
  }

  clock(clock: Clock): this {
    return this.set('clock', clock);
  }

  metrics(metrics: RunMetrics): this {
    return this.set('metrics', metrics);
  }

  sessions(sessions: SessionStore): this {
    return this.set('sessions', sessions);
  }

  events(events: EventSink): this {
    return this.set('events', events);
  }

  planParser(parser: PlanParser): this {
    return this.set('planParser', parser);
  }

  runTimeoutMs(ms: number): this {
    return this.set('runTimeoutMs', ms);
  }

  build(): AgentRuntime {
    return AgentRuntime.create(this.options as RuntimeOptions);
  }

  private set<K extends keyof RuntimeOptions>(key: K, value: RuntimeOptions[K]): this {
    this.options[key] = value;
    return this;
  }
}
