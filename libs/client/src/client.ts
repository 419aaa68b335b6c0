import type {
  AgentProfileFields,
  AgentProfileView,
  AgentRunReply,
  ApiKeyView,
  ApproveRunBody,
  CreateApiKeyRequest,
  CreateCronBody,
  CreateDelayBody,
  CreatedApiKey,
  CronTaskDetail,
  CronTaskView,
  DelayStatus,
  DelayTaskView,
  FnExecReply,
  ForkRunBody,
  FunctionDefinition,
  ListRunsQuery,
  ListSessionsQuery,
  McpServerList,
  RejectRunBody,
  MemoryForgetQuery,
  MemoryForgetReply,
  MemorySearchQuery,
  MemorySearchReply,
  RunPage,
  RunView,
  SessionPage,
  SessionView,
  StepMessagesView,
  UsageQuery,
  UsageView,
  WhoAmIView,
} from '@app/contracts';
import { Http, segment } from './http';
import { EVENT_TYPES } from './event-types';
import { chatEvents, resumable } from './resumable-stream';
import type {
  ChatEvent,
  ChatRequest,
  HealthReport,
  InvokeFunctionRequest,
  RunPlanRequest,
  StreamOptions,
} from './types';

export interface ClientOptions {
  /** The gateway, e.g. `http://127.0.0.1:3000`. */
  baseUrl: string;
  /** An API key (`ac_…`), sent as `Authorization: Bearer`. */
  apiKey?: string;
  /** Another fetch (a proxy agent, a test double); the platform's by default. */
  fetch?: typeof fetch;
  /** Extra headers on every request. */
  headers?: Record<string, string>;
}

/** A typed client of the AgentChassis gateway (REST + SSE); nothing but the platform's fetch. */
export class AgentChassisClient {
  private readonly http: Http;

  constructor(options: ClientOptions) {
    this.http = new Http({
      baseUrl: options.baseUrl,
      apiKey: options.apiKey,
      fetch: options.fetch ?? globalThis.fetch.bind(globalThis),
      headers: options.headers ?? {},
    });
  }

  /** One agent turn, answered when it ends. */
  chat(request: ChatRequest, options: StreamOptions = {}): Promise<AgentRunReply> {
    return this.http.json('POST', '/api/v1/chat', {
      body: { ...request, stream: false },
      signal: options.signal,
    });
  }

  /**
   * One agent turn as it happens: `run_start`, `thought`, `tool_call`, `tool_result`, `delta`, …,
   * then `run_end` (the whole reply) or `error`. A request refused before the run starts throws.
   */
  async *chatStream(
    request: ChatRequest,
    options: StreamOptions = {},
  ): AsyncGenerator<ChatEvent, void, undefined> {
    yield* this.stream('/api/v1/chat', { ...request, stream: true }, options);
  }

  /** The calling key: its principal, scopes and id. */
  me(): Promise<WhoAmIView> {
    return this.http.json('GET', '/api/v1/me');
  }

  readonly sessions = {
    /** The caller's sessions, most recently active first; `q` searches titles and messages. */
    list: (query: ListSessionsQuery = {}): Promise<SessionPage> =>
      this.http.json('GET', '/api/v1/sessions', { query: pageQuery(query) }),
    get: (id: string): Promise<SessionView> => this.http.json('GET', `/api/v1/sessions/${segment(id)}`),
    delete: (id: string): Promise<void> => this.http.json('DELETE', `/api/v1/sessions/${segment(id)}`),
  };

  readonly runs = {
    /** The caller's runs, newest first. */
    list: (query: ListRunsQuery = {}): Promise<RunPage> =>
      this.http.json('GET', '/api/v1/runs', { query: pageQuery(query) }),
    /** The run with its trace, plan, tool statistics and usage. */
    trace: (id: string): Promise<RunView> => this.http.json('GET', `/api/v1/runs/${segment(id)}`),
    cancel: (id: string): Promise<AgentRunReply> =>
      this.http.json('POST', `/api/v1/runs/${segment(id)}/cancel`),
    /**
     * Runs a plan held for approval, or decides a held function call (`{hash, call_id?, edit?,
     * respond?}`), and answers when the run stops again.
     */
    approve: (id: string, decision?: ApproveRunBody): Promise<AgentRunReply> =>
      this.http.json('POST', `/api/v1/runs/${segment(id)}/approve`, decision ? { body: decision } : {}),
    /** As `approve`, streaming the run's events as `chatStream` does. */
    approveStream: (
      id: string,
      options: StreamOptions & { decision?: ApproveRunBody } = {},
    ): AsyncGenerator<ChatEvent, void, undefined> =>
      this.stream(`/api/v1/runs/${segment(id)}/approve`, options.decision, options, id),
    /** Rejects a held plan, or a held function call (`{hash, call_id?, reason?}`: the model reads the reason). */
    reject: (id: string, decision?: RejectRunBody): Promise<AgentRunReply> =>
      this.http.json('POST', `/api/v1/runs/${segment(id)}/reject`, decision ? { body: decision } : {}),
    /** Rejects a held function call and streams the run's events as it goes on (the model reads `reason`). */
    rejectStream: (
      id: string,
      options: StreamOptions & { decision: RejectRunBody },
    ): AsyncGenerator<ChatEvent, void, undefined> =>
      this.stream(`/api/v1/runs/${segment(id)}/reject`, options.decision, options, id),
    /**
     * A new run that takes this run's steps before `from_step` from its journal and runs live from
     * there, with the message, agent, model or previous results changed as asked; answered when it ends.
     */
    fork: (id: string, body: ForkRunBody, options: StreamOptions = {}): Promise<AgentRunReply> =>
      this.http.json('POST', `/api/v1/runs/${segment(id)}/fork`, {
        body: { ...body, stream: false },
        signal: options.signal,
      }),
    /** As `fork`, streaming the new run's events as `chatStream` does. */
    forkStream: (
      id: string,
      body: ForkRunBody,
      options: StreamOptions = {},
    ): AsyncGenerator<ChatEvent, void, undefined> =>
      this.stream(`/api/v1/runs/${segment(id)}/fork`, { ...body, stream: true }, options),
    /** What model step `step` sent (system prompt, history, results) and got back, each part with its tokens. */
    stepMessages: (id: string, step: number): Promise<StepMessagesView> =>
      this.http.json('GET', `/api/v1/runs/${segment(id)}/steps/${step}/messages`),
    /** Carries out the caller's own plan (refused whole, every bad step named, when invalid). */
    plan: (request: RunPlanRequest, options: StreamOptions = {}): Promise<AgentRunReply> =>
      this.http.json('POST', '/api/v1/runs', { body: { ...request, stream: false }, signal: options.signal }),
    /** The caller's plan as it runs, streamed as `chatStream` does. */
    planStream: (
      request: RunPlanRequest,
      options: StreamOptions = {},
    ): AsyncGenerator<ChatEvent, void, undefined> =>
      this.stream('/api/v1/runs', { ...request, stream: true }, options),
  };

  readonly memory = {
    /** The caller's long-term memories matching `q` (every agent's, every scope), best first. */
    search: (query: MemorySearchQuery): Promise<MemorySearchReply> =>
      this.http.json('GET', '/api/v1/memory/search', { query: pageQuery(query) }),
    /** Forgets all the caller's memories, or one session's (`session_id`) or one run's (`run_id`). */
    forget: (query: MemoryForgetQuery = {}): Promise<MemoryForgetReply> =>
      this.http.json('DELETE', '/api/v1/memory', { query: pageQuery(query) }),
  };

  readonly agents = {
    list: (): Promise<AgentProfileView[]> => this.http.json('GET', '/api/v1/agents'),
    get: (name: string): Promise<AgentProfileView> =>
      this.http.json('GET', `/api/v1/agents/${segment(name)}`),
    create: (profile: AgentProfileFields): Promise<AgentProfileView> =>
      this.http.json('POST', '/api/v1/agents', { body: profile }),
    /** Replaces a profile created over the API with `profile` (every field; its name stays). */
    update: (name: string, profile: AgentProfileFields): Promise<AgentProfileView> =>
      this.http.json('PUT', `/api/v1/agents/${segment(name)}`, { body: profile }),
    delete: (name: string): Promise<void> => this.http.json('DELETE', `/api/v1/agents/${segment(name)}`),
  };

  /** Runs, tokens, cost and latency over the last day or week, by agent and by key (every principal's for an admin). */
  usage(query: UsageQuery = {}): Promise<UsageView> {
    return this.http.json('GET', '/api/v1/usage', { query: pageQuery(query) });
  }

  readonly functions = {
    list: async (): Promise<FunctionDefinition[]> =>
      (await this.http.json<{ functions: FunctionDefinition[] }>('GET', '/api/v1/functions')).functions,
    get: (name: string): Promise<FunctionDefinition> =>
      this.http.json('GET', `/api/v1/functions/${segment(name)}`),
    /** A function that ran and failed is `status: "error"`; a refused or unfinished call throws. */
    invoke: (name: string, request: InvokeFunctionRequest = {}): Promise<FnExecReply> =>
      this.http.json('POST', `/api/v1/functions/${segment(name)}/invoke`, { body: request }),
  };

  /** The MCP servers the function runners mount as functions, and each one's state. */
  mcpServers(): Promise<McpServerList> {
    return this.http.json('GET', '/api/v1/mcp/servers');
  }

  readonly delays = {
    list: async (query: { status?: DelayStatus } = {}): Promise<DelayTaskView[]> =>
      (await this.http.json<{ delays: DelayTaskView[] }>('GET', '/api/v1/delays', { query })).delays,
    get: (name: string): Promise<DelayTaskView> => this.http.json('GET', `/api/v1/delays/${segment(name)}`),
    create: (body: CreateDelayBody): Promise<DelayTaskView> =>
      this.http.json('POST', '/api/v1/delays', { body }),
    /** Cancels a pending delay; its record stays, `cancelled`. */
    cancel: (name: string): Promise<DelayTaskView> =>
      this.http.json('DELETE', `/api/v1/delays/${segment(name)}`),
  };

  readonly crons = {
    list: async (query: { name?: string } = {}): Promise<CronTaskView[]> =>
      (await this.http.json<{ crons: CronTaskView[] }>('GET', '/api/v1/crons', { query })).crons,
    get: (name: string): Promise<CronTaskDetail> => this.http.json('GET', `/api/v1/crons/${segment(name)}`),
    create: (body: CreateCronBody): Promise<CronTaskView> =>
      this.http.json('POST', '/api/v1/crons', { body }),
    delete: (name: string): Promise<CronTaskView> =>
      this.http.json('DELETE', `/api/v1/crons/${segment(name)}`),
  };

  readonly keys = {
    /** The answer is the only time the key itself is shown. */
    create: (request: CreateApiKeyRequest): Promise<CreatedApiKey> =>
      this.http.json('POST', '/api/v1/keys', { body: request }),
    list: async (): Promise<ApiKeyView[]> =>
      (await this.http.json<{ keys: ApiKeyView[] }>('GET', '/api/v1/keys')).keys,
    revoke: (id: string): Promise<void> => this.http.json('DELETE', `/api/v1/keys/${segment(id)}`),
  };

  /** The platform's health; a 503 is answered as the report (status `degraded`), not thrown. */
  health(): Promise<HealthReport> {
    return this.http.json('GET', '/health', { okStatuses: [503] });
  }

  /**
   * A POST answered as the run's events; a stream that drops before `run_end` is resumed after the
   * last event id it got (`GET /api/v1/runs/:id/events` with `Last-Event-ID`), by itself.
   */
  private async *stream(
    path: string,
    body: unknown,
    { signal, onReconnect }: StreamOptions,
    runId?: string,
  ): AsyncGenerator<ChatEvent, void, undefined> {
    const res = await this.http.send('POST', path, { body, accept: 'text/event-stream', signal });
    if (!res.headers.get('content-type')?.startsWith('text/event-stream')) {
      // The gateway answered without streaming: the whole reply at once.
      yield { type: 'run_end', data: (await res.json()) as AgentRunReply };
      return;
    }
    yield* resumable({
      first: chatEvents(res, EVENT_TYPES, signal),
      resume: async (run, lastEventId) => {
        const resumed = await this.http.send('GET', `/api/v1/runs/${segment(run)}/events`, {
          accept: 'text/event-stream',
          headers: { 'last-event-id': lastEventId },
          signal,
        });
        return chatEvents(resumed, EVENT_TYPES, signal);
      },
      runId,
      signal,
      onReconnect,
    });
  }
}

function pageQuery(query: object): Record<string, string | undefined> {
  return Object.fromEntries(
    Object.entries(query).map(([key, value]) => [key, value === undefined ? undefined : String(value)]),
  );
}
