// @agentchassis/agent: AgentChassis agents inside an application's own process.
// First: an older Node gets one line saying which it needs, before a dependency crashes on it.
import './node-version';
export {
  createAgent,
  createTaskAgent,
  EmbeddedAgent,
  type AgentLimits,
  type AgentOptions,
} from './create-agent';
export { defineFunction, type FunctionSpec } from './functions/define-function';
export { InProcessFunctions } from './functions/in-process-functions';
export { anthropic, openai, type ModelOptions } from './models/models';
export { sqliteSessions, SqliteSessionStore } from './sessions/sqlite-session.store';
export { sqliteMemory, SqliteMemoryStore } from './memory/sqlite-memory.store';
export { RunArchive, type AgentMemoryOptions } from './memory/run-archive';
export {
  Agent,
  AgentError,
  AgentSession,
  Cancelled,
  ConfigurationError,
  HookFailed,
  InMemoryMemoryStore,
  InMemoryRunJournal,
  InMemorySessionStore,
  JSON_PLAN_PARSER,
  LimitExceeded,
  ModelError,
  PlanError,
  TaskAgent,
  ScriptedModelClient,
  ToolError,
  type AgentDefinition,
  type AgentResult,
  type AgentRunStream,
  type Clock,
  type EventSink,
  type Hooks,
  type JournalEntry,
  type MemoryScope,
  type MemoryStore,
  type ModelClient,
  type ParsedPlan,
  type PlanParser,
  type RunEvent,
  type RunInput,
  type RunJournal,
  type ScriptedReply,
  type SessionSettings,
  type SessionStore,
  type StoredTurnMessage,
  type ToolDecision,
  type TurnInput,
} from '@app/agent-core/portable';
export {
  Param,
  type AgentFunction,
  type FunctionContext,
  type FunctionLogger,
  type FunctionResult,
  type ParamOptions,
} from '@app/functions/portable';
