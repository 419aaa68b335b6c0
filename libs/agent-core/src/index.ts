export { Agent } from './agent';
export type {
  AgentResult,
  AgentRunStream,
  ExecuteHost,
  ExecuteOptions,
  HistoryLoader,
  ResumeOptions,
  RunInput,
} from './agent-types';
export { AgentSession } from './session';
export type { SessionOptions, SessionSettings, TurnInput } from './session';
export { DEFAULT_PLAN_GOAL, TaskAgent } from './task-agent';
export { planErrors } from './strategies/plan-check';
export { forCallerPlan } from './strategies/caller-plan';
export { AgentRuntime, AgentRuntimeBuilder, createRuntime } from './runtime';
export type { RuntimeOptions } from './runtime';
export { DEFAULT_SYSTEM_PROMPT, DEFINITION_DEFAULTS, defineAgent } from './agent-definition';
export type { AgentDefinition } from './agent-definition';
export {
  AgentError,
  BudgetRefused,
  Cancelled,
  ConfigurationError,
  HookFailed,
  IllegalTransition,
  LimitExceeded,
  ModelError,
  PlanError,
  ToolError,
} from './errors';
export type { RunEvent } from './events';
export { EventStream, fanOut } from './event-stream';
export type {
  Clock,
  EventSink,
  FunctionCallOutcome,
  FunctionCallRequest,
  Functions,
  Hooks,
  MemoryStore,
  RunMetrics,
  RunJournal,
  SessionStore,
  SpendHold,
  SpendLedger,
  StoredTurnMessage,
  ToolDecision,
} from './ports';
export type {
  ChatMessage,
  ChatRole,
  CompletionRequest,
  CompletionResult,
  ModelClient,
  StopReason,
  NativeTool,
  NativeToolCall,
  TokenUsage,
} from './model/model-client';
export { costOf, pricedUsage, roundUsd, worstCaseCost } from './cost';
export { addTokens, tokensBetween, tokensOf, uncachedPromptTokens } from './usage';
export { RunState } from './run-state';
export type { AbortReason, PriorProgress, RunIdentity, RunPhase, RunStateOptions } from './run-state';
export type { RunContext } from './run-context';
export { answered, ended, statusOf, type RunOutcome } from './run-outcome';
export { failureOf } from './run-failure';
export { endedByHook, replyOf, runStrategy } from './run-turn';
export { frameRun, type RunFrame, type RunHost } from './run-frame';
export { callModel, type ModelCallOptions } from './model/model-call';
export { modelStep, type ModelStep, type ModelStepOptions } from './model/model-step';
export { BUDGETED_MAX_TOKENS } from './model/spend-hold';
export { promptTokensOf } from './model/prompt-estimate';
export { toolStep } from './tools/tool-step';
export { callerOf, idempotencyKeyOf } from './tools/call-identity';
export { paramErrors } from './tools/param-check';
export type { ToolBatch, ToolCall, ToolOutcome } from './tools/tool-call';
export {
  argumentsHash,
  canonicalJson,
  needsApproval,
  respondedResult,
  type ApprovalDecision,
  type ApprovalDecisions,
  type HeldCall,
} from './tools/approval-gate';
export { ClientToolSet, clientCallId, toPromptFunction } from './tools/client-tool-set';
export { ClientResults, clientResultOf } from './tools/client-results';
export { errorObservation, successObservation, type ObservationOptions } from './tools/observation';
export { runReact } from './strategies/react';
export { carryOutPlan, startPlan } from './strategies/plan';
export { describePlan } from './strategies/plan-prompt';
export {
  JSON_PLAN_PARSER,
  parsePlan,
  type ParsedPlan,
  type PlannedStep,
  type PlanParser,
} from './strategies/plan-parser';
export { rejectPlan } from './strategies/plan-rejection';
export { PromptSet, renderTemplate } from './prompts/prompt-set';
export type { PromptLanguage, PromptTemplates } from './prompts/templates';
export { ENGLISH_TEMPLATES } from './prompts/templates.en';
export { CHINESE_TEMPLATES } from './prompts/templates.zh';
export { foldHistory, historyTurns, windowHistory, type WindowMessage } from './session/history-window';
export { InMemorySessionStore } from './session/in-memory-session.store';
export { ScriptedModelClient, type ScriptedReply } from './testing/scripted-model';
export { InMemoryFunctions, type InMemoryHandler } from './testing/in-memory-functions';
export { newId } from './ids';
export { InMemoryRunInbox, type RunInbox } from './inbox/run-inbox';
export { settleInbox } from './inbox/settle-inbox';
export { type AskedVerdict, classifyMessage, type RoutingVerdict } from './inbox/message-routing';
export type { MemoryExpansion, MemoryRef, MemoryScope, MemorySegment } from './memory/memory-store';
export { MAX_MEMORY_TERMS, memoryTerms } from './memory/memory-terms';
export { rankByBm25, searchWords } from './memory/memory-ranking';
export { fuseByReciprocalRank, RRF_K } from './memory/memory-fusion';
export { MAX_SEGMENT_CHARS, segmentRun, type FinishedRun } from './memory/run-segments';
export { functionsWithMemory } from './memory/run-memory';
export { RunArchiver, type RunArchiverOptions } from './memory/run-archiver';
export { chunkOf, expansionOf, withinScope } from './memory/memory-chunks';
export { InMemoryMemoryStore } from './memory/in-memory-memory.store';
export {
  isMemoryFunction,
  MEMORY_EXPAND,
  MEMORY_FUNCTION_NAMES,
  MEMORY_FUNCTIONS,
  MEMORY_RETRIEVE,
  MemoryFunctions,
} from './memory/memory-functions';
export {
  JournalCursor,
  type JournalEntry,
  type ModelStepEntry,
  type ToolCallEntry,
  type ToolStartedEntry,
} from './journal/journal-entry';
export { replayJournal, type ReplayedRun, type ReplayOptions } from './journal/replay-journal';
export { InMemoryRunJournal } from './journal/in-memory-run-journal';
export { IN_FLIGHT, JournalReplay, resumeFromJournal } from './journal/journal-replay';
export {
  JOURNAL_FORMAT,
  JOURNAL_FORMATS,
  JournalFormatError,
  type JournalFormats,
  readJournal,
  type StoredJournalEntry,
  storedEntry,
} from './journal/journal-format';
