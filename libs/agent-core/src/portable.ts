// The run engine as the embedded SDK loads it (`@app/agent-core/portable`, as the contracts and the
// functions library have theirs): agents and sessions, their errors, and the stores and parts an
// application holds, as values; every other export of the library as a type only. A turn's
// machinery (strategies, tools, the journal's replay; agent-turn.ts) is loaded at an agent's first
// turn, so an agent made and not run yet does not carry it (docs/benchmarks.md). The platform's
// services import the whole library (`@app/agent-core`).
export { Agent } from './agent';
export { AgentSession } from './session';
export { TaskAgent } from './task-agent';
export { AgentRuntime } from './runtime';
export { defineAgent } from './agent-definition';
export {
  AgentError,
  Cancelled,
  ConfigurationError,
  HookFailed,
  LimitExceeded,
  ModelError,
  PlanError,
  ToolError,
} from './errors';
export { JSON_PLAN_PARSER } from './strategies/plan-parser';
export { InMemorySessionStore } from './session/in-memory-session.store';
export { InMemoryRunJournal } from './journal/in-memory-run-journal';
export { ScriptedModelClient } from './testing/scripted-model';
export { InMemoryMemoryStore } from './memory/in-memory-memory.store';
export { RunArchiver } from './memory/run-archiver';
export { chunkOf, expansionOf } from './memory/memory-chunks';
export { rankByBm25 } from './memory/memory-ranking';
export type * from './index';
