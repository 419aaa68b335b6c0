import { AgentRunReply, AgentRunRequest } from './agent';
import {
  AgentNameRequest,
  AgentProfileCreateRequest,
  AgentProfileDeleteRequest,
  AgentProfileUpdateRequest,
  AgentProfileView,
} from './agent-profile';
import {
  RunApproveRequest,
  RunInterruptRequest,
  RunRefRequest,
  RunRejectRequest,
  RunView,
  SessionRefRequest,
  SessionView,
} from './agent-runs';
import { FunctionCallBatch } from './function-calls';
import { type FnCatalogReply, type FnExecReply, FnExecRequest, FnInvokeRequest } from './functions';
import type { PingReply, ServiceName } from './health';
import { ListRunsRequest, ListSessionsRequest, type Page, RunSummary, SessionSummary } from './listing';
import { type MessageRouteReply, MessageRouteRequest, RunInboxRequest } from './message-routing';
import { MemoryForgetReply, MemoryForgetRequest, MemorySearchReply, MemorySearchRequest } from './memory';
import { NO_BODY, replyOf, route } from './route';
import {
  CreateCronRequest,
  CreateDelayRequest,
  CronTaskDetail,
  CronTaskView,
  DelayTaskView,
  ListCronsRequest,
  ListDelaysRequest,
  TaskNameRequest,
} from './scheduler';
import { RunForkRequest, RunStepRequest, StepMessagesView } from './run-studio';
import { QueueGroups, Subjects } from './subjects';
import { UsageStatsRequest, UsageView } from './usage-stats';

/** A query or small change answered from the database. */
const QUERY_MS = 5_000;
/** A cancel waits for the owning executor to wind the run down. */
const CANCEL_MS = 20_000;
/** The owner of a run in flight answers its interrupt with the run's ending. */
const INTERRUPT_MS = 15_000;
/** Creating a task may ask every function provider whether its function exists: a little slack. */
const SCHEDULER_MS = 10_000;
const RECORD_MS = 2_000;
/** Rebuilding a step's messages replays the run's journal and lists the functions it had. */
const STEP_MESSAGES_MS = 10_000;
/** Routing a message may take one short model call. */
const ROUTE_MS = 30_000;
const PING_MS = 1_000;
/** How long a scatter-gather of the catalogue collects answers. */
const CATALOG_GATHER_MS = 200;

const executor = { queue: QueueGroups.executor };
const executorRead = { ...executor, read: true, timeoutMs: QUERY_MS };
const scheduler = { queue: QueueGroups.scheduler, timeoutMs: SCHEDULER_MS };
const schedulerRead = { ...scheduler, read: true };

/**
 * Every request/reply route of the platform: its subject, the request's DTO class, the reply's
 * type and its default timeout. A route without a timeout takes the caller's deadline (a run's,
 * a call's). Publish-only subjects (events, announcements, cancels) are in `Subjects`.
 */
export const Routes = {
  /** A conversation turn; the caller's deadline is the run's timeout and a grace. */
  agentRun: route(Subjects.agentRun, AgentRunRequest, AgentRunReply, executor),
  agentRunList: route(Subjects.agentRunList, ListRunsRequest, replyOf<Page<RunSummary>>(), executorRead),
  agentRunGet: route(Subjects.agentRunGet, RunRefRequest, RunView, executorRead),
  agentRunCancel: route(Subjects.agentRunCancel, RunRefRequest, AgentRunReply, {
    ...executor,
    timeoutMs: CANCEL_MS,
  }),
  /** Runs the held plan: a turn, with the run's deadline. */
  agentRunApprove: route(Subjects.agentRunApprove, RunApproveRequest, AgentRunReply, executor),
  agentRunReject: route(Subjects.agentRunReject, RunRejectRequest, AgentRunReply, {
    ...executor,
    timeoutMs: QUERY_MS,
  }),
  /** A new run from another's journal: a turn, with the run's deadline. */
  agentRunFork: route(Subjects.agentRunFork, RunForkRequest, AgentRunReply, executor),
  /** Rebuilds one model step's request: a replay of the journal, so a little longer than a query. */
  agentRunStepMessages: route(Subjects.agentRunStepMessages, RunStepRequest, StepMessagesView, {
    ...executorRead,
    timeoutMs: STEP_MESSAGES_MS,
  }),
  agentUsageStats: route(Subjects.agentUsageStats, UsageStatsRequest, UsageView, executorRead),
  /** Asked of the executor holding the run (its lease owner); answered with the run's ending. */
  agentRunInterrupt: (executor: string) =>
    route(Subjects.agentRunInterrupt(executor), RunInterruptRequest, AgentRunReply, {
      timeoutMs: INTERRUPT_MS,
    }),
  /** Asked of the executor holding the run (its lease owner). */
  agentRunInbox: (executor: string) =>
    route(Subjects.agentRunInbox(executor), RunInboxRequest, replyOf<{ accepted: true }>(), {
      timeoutMs: QUERY_MS,
    }),
  /** May ask the model whether the message belongs to the session's running run. */
  agentMessageRoute: route(Subjects.agentMessageRoute, MessageRouteRequest, replyOf<MessageRouteReply>(), {
    ...executor,
    timeoutMs: ROUTE_MS,
  }),
  agentSessionList: route(
    Subjects.agentSessionList,
    ListSessionsRequest,
    replyOf<Page<SessionSummary>>(),
    executorRead,
  ),
  agentSessionGet: route(Subjects.agentSessionGet, SessionRefRequest, SessionView, executorRead),
  agentSessionDelete: route(Subjects.agentSessionDelete, SessionRefRequest, replyOf<{ deleted: true }>(), {
    ...executor,
    timeoutMs: QUERY_MS,
  }),
  agentMemorySearch: route(Subjects.agentMemorySearch, MemorySearchRequest, MemorySearchReply, executorRead),
  agentMemoryForget: route(Subjects.agentMemoryForget, MemoryForgetRequest, MemoryForgetReply, {
    ...executor,
    timeoutMs: QUERY_MS,
  }),
  agentProfileList: route(Subjects.agentProfileList, NO_BODY, replyOf<AgentProfileView[]>(), executorRead),
  agentProfileGet: route(Subjects.agentProfileGet, AgentNameRequest, AgentProfileView, executorRead),
  agentProfileCreate: route(Subjects.agentProfileCreate, AgentProfileCreateRequest, AgentProfileView, {
    ...executor,
    timeoutMs: QUERY_MS,
    what: 'agent profile',
  }),
  agentProfileUpdate: route(Subjects.agentProfileUpdate, AgentProfileUpdateRequest, AgentProfileView, {
    ...executor,
    timeoutMs: QUERY_MS,
    what: 'agent profile',
  }),
  agentProfileDelete: route(
    Subjects.agentProfileDelete,
    AgentProfileDeleteRequest,
    replyOf<{ deleted: true }>(),
    { ...executor, timeoutMs: QUERY_MS },
  ),
  /** One function call; the caller's deadline is the call's. Each provider serves in its own queue group. */
  fnExec: (name: string) =>
    route(Subjects.fnExec(name), FnExecRequest, replyOf<FnExecReply>(), { what: 'function call' }),
  /** Scatter-gather: every provider answers with its definitions. */
  fnCatalog: route(Subjects.fnCatalog, NO_BODY, replyOf<FnCatalogReply>(), { timeoutMs: CATALOG_GATHER_MS }),
  /** An API client's direct call, relayed by an executor; the caller's deadline is the call's. */
  fnInvoke: route(Subjects.fnInvoke, FnInvokeRequest, replyOf<FnExecReply>(), {
    ...executor,
    what: 'invocation',
  }),
  /**
   * Untraced: a batch holds the records of many calls of many traces, so a span of it would sit
   * in the trace of whichever call happened to open the batch, after that call had ended.
   */
  fnCallsRecord: route(Subjects.fnCallsRecord, FunctionCallBatch, replyOf<{ recorded: number }>(), {
    queue: QueueGroups.functionCallRecorders,
    timeoutMs: RECORD_MS,
    what: 'function call batch',
    traced: false,
  }),
  servicePing: (service: ServiceName) =>
    route(Subjects.servicePing(service), NO_BODY, replyOf<PingReply>(), {
      timeoutMs: PING_MS,
      traced: false,
    }),
  schedulerDelayCreate: route(Subjects.schedulerDelayCreate, CreateDelayRequest, DelayTaskView, scheduler),
  schedulerDelayList: route(
    Subjects.schedulerDelayList,
    ListDelaysRequest,
    replyOf<DelayTaskView[]>(),
    schedulerRead,
  ),
  schedulerDelayGet: route(Subjects.schedulerDelayGet, TaskNameRequest, DelayTaskView, schedulerRead),
  schedulerDelayCancel: route(Subjects.schedulerDelayCancel, TaskNameRequest, DelayTaskView, scheduler),
  schedulerCronCreate: route(Subjects.schedulerCronCreate, CreateCronRequest, CronTaskView, scheduler),
  schedulerCronList: route(
    Subjects.schedulerCronList,
    ListCronsRequest,
    replyOf<CronTaskView[]>(),
    schedulerRead,
  ),
  schedulerCronGet: route(Subjects.schedulerCronGet, TaskNameRequest, CronTaskDetail, schedulerRead),
  schedulerCronDelete: route(Subjects.schedulerCronDelete, TaskNameRequest, CronTaskView, scheduler),
} as const;
