import {
  Agent,
  type AgentDefinition,
  AgentRuntime,
  AgentSession,
  defineAgent,
  type EventSink,
  type Hooks,
  type ModelClient,
  type SessionSettings,
  type SessionStore,
  TaskAgent,
} from '@app/agent-core';
import type { AgentMode, AgentProtocol } from '@app/contracts';
import type { AgentFunction, FunctionLogger } from '@app/functions';
import { InProcessFunctions } from './functions/in-process-functions';

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
  /** Where functions log (`ctx.logger`); silent when absent. */
  logger?: FunctionLogger;
  /** Anything else of the run engine's definition (temperature, prompts, language, …). */
  definition?: Partial<Omit<AgentDefinition, 'name'>>;
}

/** The run engine's Agent, with `session(id?)` for conversations. */
export class EmbeddedAgent extends Agent {
  /** A conversation: each `submitTurn` sees the turns before it. Reuse an id to continue one. */
  session(id?: string, settings?: SessionSettings): AgentSession {
    return new AgentSession(this, { sessionId: id, settings });
  }
}

/** An agent running in this process: all behaviour is the run engine's (@app/agent-core). */
export function createAgent(options: AgentOptions): EmbeddedAgent {
  return new EmbeddedAgent(runtimeFor(options), definitionFor(options));
}

/** An agent that works by plans: `run(goal)` plans first; `executePlan(steps)` runs yours. */
export function createTaskAgent(options: AgentOptions): TaskAgent {
  return new TaskAgent(runtimeFor(options), definitionFor(options));
}

function runtimeFor(options: AgentOptions): AgentRuntime {
  return AgentRuntime.create({
    model: options.model,
    functions: new InProcessFunctions(options.functions ?? [], options.logger),
    sessions: options.sessions,
    hooks: options.hooks,
    events: options.events,
    ...(options.limits?.runTimeoutMs ? { runTimeoutMs: options.limits.runTimeoutMs } : {}),
  });
}

function definitionFor(options: AgentOptions): AgentDefinition {
  const limits = options.limits ?? {};
  return defineAgent({
    allowed_tools: ['*'],
    ...options.definition,
    name: options.name,
    system_prompt: options.instructions ?? options.definition?.system_prompt,
    protocol: options.protocol ?? options.definition?.protocol,
    mode: options.mode ?? options.definition?.mode,
    max_steps: limits.maxSteps ?? options.definition?.max_steps,
    max_tool_calls: limits.maxToolCalls ?? options.definition?.max_tool_calls,
    single_call_timeout: limits.callTimeoutMs ?? options.definition?.single_call_timeout,
    run_timeout: limits.runTimeoutMs ?? options.definition?.run_timeout,
    total_token_budget: limits.tokenBudget ?? options.definition?.total_token_budget,
    context_window: limits.contextWindow ?? options.definition?.context_window,
    observation_max_len: limits.observationMaxLen ?? options.definition?.observation_max_len,
  });
}
