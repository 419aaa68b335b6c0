import {
  Agent,
  type AgentDefinition,
  AgentRuntime,
  AgentSession,
  ConfigurationError,
  defineAgent,
  type AgentResult,
  type Clock,
  type EventSink,
  type ExecuteOptions,
  type Hooks,
  type ModelClient,
  type PlanParser,
  type RunInput,
  type RunJournal,
  type SessionSettings,
  type SessionStore,
  TaskAgent,
} from '@app/agent-core/portable';
import type { AgentMode, AgentProtocol } from '@app/contracts/portable';
import type { AgentFunction, FunctionLogger } from '@app/functions/portable';
import { InProcessFunctions } from './functions/in-process-functions';
import { type AgentMemoryOptions, RunArchive } from './memory/run-archive';

/** A run's limits; each falls back to the platform's default. */
export interface AgentLimits {
  /** Model calls a run may make. */
  maxSteps?: number;
  /** Function calls a run may make. */
  maxToolCalls?: number;
  /** Milliseconds one function call may take. */
  callTimeoutMs?: number;
  /** Milliseconds a run may take. */
  runTimeoutMs?: number;
  /** Tokens a run may spend (prompt + completion); 0: no budget. */
  tokenBudget?: number;
  /** USD a run may spend at the price its turn is given (`price`, or a session's `pricing`). */
  maxCostUsd?: number;
  /** Tokens of the model's context; a session's history may take half. */
  contextWindow?: number;
  /** Characters of one function result the model reads. */
  observationMaxLen?: number;
}

export interface AgentOptions {
  name: string;
  /** The agent's instructions: they open every system prompt. */
  instructions?: string;
  model: ModelClient;
  functions?: readonly AgentFunction[];
  /** How calls are written: `xml-toon` (default), `json-action` or `native` tool calls. */
  protocol?: AgentProtocol;
  /** `react` (default) or `plan`: write a plan, run its steps, answer from them. */
  mode?: AgentMode;
  limits?: AgentLimits;
  /** Where `session()` keeps history: in memory when absent, or `await sqliteSessions(file)`. */
  sessions?: SessionStore;
  hooks?: Hooks;
  /** Receives every run's events, besides the stream `send()` returns. */
  events?: EventSink;
  /** Reads the plans of `mode: 'plan'`; the JSON plan format when absent (its error goes back in `repair_plan`). */
  planParser?: PlanParser;
  /** The run journal: each model step and function call handed over as it completes (`new InMemoryRunJournal()`). */
  journal?: RunJournal;
  /** The time runs and sessions read (run deadlines, a session's `ttlMs`); the system clock when absent. */
  clock?: Clock;
  /**
   * Long-term memory: completed runs archived to `store` (in this process when absent), searched
   * by the model with `memory_retrieve` and `memory_expand` within `scope`.
   */
  memory?: AgentMemoryOptions;
  /** Where functions log (`ctx.logger`); silent when absent. */
  logger?: FunctionLogger;
  /** Anything else of the run engine's definition (temperature, prompts, language, …). */
  definition?: Partial<Omit<AgentDefinition, 'name'>>;
}

/** The run engine's Agent, with `session(id?)` for conversations, and its memory when given one. */
export class EmbeddedAgent extends Agent {
  constructor(
    runtime: AgentRuntime,
    definition: AgentDefinition,
    /** Absent when the agent has no memory. */
    readonly memory?: RunArchive,
  ) {
    super(runtime, definition);
  }

  override withDefinition(changes: Partial<AgentDefinition>): EmbeddedAgent {
    refuseNeedsApproval(changes);
    return new EmbeddedAgent(this.runtime, { ...this.definition, ...changes }, this.memory);
  }

  /** The run (searching the memory's scope), then (not awaited) its archive to memory. */
  override async execute(input: RunInput, options?: ExecuteOptions): Promise<AgentResult> {
    const scoped = this.memory ? { memoryScope: this.memory.scope, ...input } : input;
    const result = await super.execute(scoped, options);
    this.memory?.archive(result);
    return result;
  }

  /** A conversation: each `submitTurn` sees the turns before it. Reuse an id to continue one. */
  session(id?: string, settings?: SessionSettings): AgentSession {
    return new AgentSession(this, { sessionId: id, settings });
  }
}

/** An agent running in this process: all behaviour is the run engine's (@app/agent-core). */
export function createAgent(options: AgentOptions): EmbeddedAgent {
  const memory = options.memory && new RunArchive(options.memory, options.name, options.logger);
  return new EmbeddedAgent(runtimeFor(options, memory), definitionFor(options), memory);
}

/** An agent that works by plans: `run(goal)` plans first; `executePlan(steps)` runs yours. */
export function createTaskAgent(options: Omit<AgentOptions, 'memory'>): TaskAgent {
  return new TaskAgent(runtimeFor(options), definitionFor(options));
}

function runtimeFor(options: AgentOptions, memory?: RunArchive): AgentRuntime {
  return AgentRuntime.create({
    model: options.model,
    functions: new InProcessFunctions(options.functions ?? [], options.logger),
    memory: memory?.store,
    sessions: options.sessions,
    hooks: options.hooks,
    events: options.events,
    planParser: options.planParser,
    journal: options.journal,
    clock: options.clock,
    ...(options.limits?.runTimeoutMs ? { runTimeoutMs: options.limits.runTimeoutMs } : {}),
  });
}

/**
 * `needs_approval` holds a call until a person decides over the platform's API, possibly hours
 * later, on another executor; in a process of its own an application decides at once, in
 * `hooks.beforeTool` (which may await a person's answer), so the setting is refused rather than
 * left to hold runs nothing can take up again.
 */
const NEEDS_APPROVAL_IN_PROCESS =
  'needs_approval holds calls for a decision taken over the platform API; in process, decide in hooks.beforeTool (it may await a person and allow, deny or rewrite the call)';

function refuseNeedsApproval(definition?: Partial<AgentDefinition>): void {
  if (definition?.needs_approval !== undefined) throw new ConfigurationError(NEEDS_APPROVAL_IN_PROCESS);
}

function definitionFor(options: AgentOptions): AgentDefinition {
  refuseNeedsApproval(options.definition);
  const limits = options.limits ?? {};
  const chosen: Partial<AgentDefinition> = {
    system_prompt: options.instructions,
    protocol: options.protocol,
    mode: options.mode,
    max_steps: limits.maxSteps,
    max_tool_calls: limits.maxToolCalls,
    single_call_timeout: limits.callTimeoutMs,
    run_timeout: limits.runTimeoutMs,
    total_token_budget: limits.tokenBudget,
    max_cost_usd: limits.maxCostUsd,
    context_window: limits.contextWindow,
    observation_max_len: limits.observationMaxLen,
  };
  const given = Object.fromEntries(Object.entries(chosen).filter(([, value]) => value !== undefined));
  // Every function the application hands over is the agent's to call, unless the definition narrows it.
  return defineAgent({ allowed_tools: ['*'], ...options.definition, ...given, name: options.name });
}
