import type { AgentEventData, ErrorBody, FunctionDefinition, ServiceName } from '@app/contracts';

export type {
  AgentEventData,
  AgentMode,
  AgentProfileFields,
  AgentProfileView,
  AgentProtocol,
  AgentRunReply,
  ApiKeyView,
  ApprovalRequiredEvent,
  ApproveRunBody,
  CreateApiKeyRequest,
  CreateCronBody,
  CreateDelayBody,
  CreatedApiKey,
  CronTaskDetail,
  CronTaskView,
  DelayStatus,
  DelayTaskView,
  ErrorBody,
  ErrorCode,
  FinishReason,
  FnExecReply,
  FunctionCallSummary,
  FunctionDefinition,
  FunctionResult,
  ListRunsQuery,
  ListSessionsQuery,
  ParameterSchema,
  PendingApproval,
  Plan,
  PlanStep,
  RejectRunBody,
  RunPage,
  RunStatus,
  RunSummary,
  RunView,
  Scope,
  ServiceName,
  SessionMessageView,
  SessionPage,
  SessionSummary,
  SessionView,
  TaskFireView,
  TraceStep,
  Usage,
  WhoAmIView,
  ApprovalDecisionView,
  McpServerList,
  McpServerView,
  ForkRunBody,
  ForkToolResult,
  PromptMessage,
  PromptPart,
  PromptReply,
  StepMessagesView,
  TimelineSpan,
  UsageBucket,
  UsageQuery,
  UsageSeries,
  UsageView,
  UsageWindow,
} from '@app/contracts';

/** Body of `POST /api/v1/chat` (the gateway's own request DTO, as the API documents it). */
export interface ChatRequest {
  message: string;
  session_id?: string;
  agent?: string;
}

/** Body of `POST /api/v1/runs`: the caller's own plan, carried out by the agent (`message`: its goal). */
export interface RunPlanRequest {
  plan: { steps: { description?: string; tool: string; parameters?: Record<string, unknown> }[] };
  message?: string;
  session_id?: string;
  agent?: string;
}

/** Body of `POST /api/v1/functions/:name/invoke`. */
export interface InvokeFunctionRequest {
  params?: Record<string, unknown>;
  /** The call's time limit; the function's own default when absent. */
  timeout_ms?: number;
}

export type HealthState = 'ok' | 'down';

/** `GET /health`: 200 when everything is up, 503 (with `error`) naming what is down. */
export interface HealthReport {
  status: 'ok' | 'degraded';
  services: Record<ServiceName, HealthState>;
  nats: HealthState;
  database: HealthState;
  redis: HealthState;
  /** The executor's model configuration; `unknown` while no executor answers. */
  llm: 'ok' | 'not configured' | 'unknown';
  error?: ErrorBody;
}

export interface FunctionList {
  functions: FunctionDefinition[];
}

/** One event of a streamed turn: the run's events, then `run_end` (the whole reply) or `error`. */
export type ChatEvent =
  | { [K in keyof AgentEventData]: { type: K; data: AgentEventData[K]; id?: string } }[keyof AgentEventData]
  | { type: 'error'; data: { error: ErrorBody }; id?: string };

export type ChatEventType = ChatEvent['type'];

export interface StreamOptions {
  /** Aborting stops reading (the run goes on on the server: cancel it with `runs.cancel`). */
  signal?: AbortSignal;
  /** Told before each reconnect of a stream that dropped (`attempt` from 1; the last event id it got). */
  onReconnect?: (attempt: number, lastEventId: string) => void;
}
