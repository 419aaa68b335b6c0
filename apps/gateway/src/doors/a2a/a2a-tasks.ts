import type {
  AgentCard,
  CancelTaskRequest,
  GetTaskRequest,
  ListTasksRequest,
  ListTasksResponse,
  Message,
  SendMessageRequest,
  StreamResponse,
  SubscribeToTaskRequest,
  Task,
} from '@a2a-js/sdk';
import {
  A2AError,
  JsonRpcTransportError,
  PushNotificationNotSupportedError,
  TaskNotCancelableError,
  TaskNotFoundError,
  UnsupportedOperationError,
} from '@a2a-js/sdk/errors';
import type { A2ARequestHandler } from '@a2a-js/sdk/server';
import { type AgentRunReply, InvalidParamsError, toAppError, type ToolDecision } from '@app/contracts';
import type { Caller, ChatService } from '../../chat/chat.service';
import type { RunEvents } from '../../chat/run-events';
import type { RunsService } from '../../runs/runs.service';
import { toHttpError } from '../../common/http-error';
import { parseHeldCallId } from '../held-call-id';
import { jsonRpcCode } from '../json-rpc-error';
import type { A2aCardService } from './a2a-card.service';
import { streamResponsesOf, taskOf, taskOfRun } from './a2a-task';

export interface A2aDeps {
  chat: ChatService;
  runs: RunsService;
  cards: A2aCardService;
}

/**
 * A2A 1.0's methods over the platform's runs, for one caller and one agent: a task is a run, its
 * context the run's session; a task whose call is held for approval is `input-required`, and the
 * caller's next message on it (a data part `{"approve": …}`) decides the call. The SDK's JSON-RPC
 * handler parses the requests and writes the responses; this answers them.
 */
export class PlatformA2aHandler implements A2ARequestHandler {
  constructor(
    private readonly deps: A2aDeps,
    private readonly caller: Caller,
    private readonly agent: string,
    private readonly base: string,
  ) {}

  getAgentCard(): Promise<AgentCard> {
    return guarded(() => this.deps.cards.card(this.agent, this.base));
  }

  getAuthenticatedExtendedAgentCard(): Promise<AgentCard> {
    return guarded(() => this.deps.cards.extendedCard(this.agent, this.base, this.caller));
  }

  sendMessage(params: SendMessageRequest): Promise<Task> {
    return guarded(async () => {
      const input = messageOf(params);
      const decision = await this.decisionOf(input);
      const reply: AgentRunReply = decision
        ? await this.deps.runs.approve(input.taskId, this.caller, decision)
        : await this.deps.chat.turn(this.turnOf(input), this.caller);
      return taskOf(reply, input);
    });
  }

  async *sendMessageStream(params: SendMessageRequest): AsyncGenerator<StreamResponse, void, undefined> {
    const input = messageOf(params);
    const decision = await guarded(() => this.decisionOf(input));
    const events: RunEvents = decision
      ? this.deps.runs.approveStream(input.taskId, this.caller, decision)
      : this.deps.chat.streamTurn(this.turnOf(input), this.caller);
    yield* this.relay(events, input);
  }

  getTask(params: GetTaskRequest): Promise<Task> {
    return guarded(async () => taskOfRun(await this.deps.runs.get(params.id, this.caller.principal)));
  }

  cancelTask(params: CancelTaskRequest): Promise<Task> {
    return guarded(async () => {
      const reply = await this.deps.runs.cancel(params.id, this.caller.principal).catch((err: unknown) => {
        throw toAppError(err).code === 'conflict' ? new TaskNotCancelableError(toAppError(err).message) : err;
      });
      return taskOf(reply);
    });
  }

  async *resubscribe(params: SubscribeToTaskRequest): AsyncGenerator<StreamResponse, void, undefined> {
    const run = await guarded(() => this.deps.runs.get(params.id, this.caller.principal));
    const input = taskOfRun(run).history[0];
    yield* this.relay(this.deps.chat.follow(params.id, this.caller), input);
  }

  listTasks(params: ListTasksRequest): Promise<ListTasksResponse> {
    return guarded(async () => {
      const page = await this.deps.runs.list(
        {
          ...(params.contextId ? { session_id: params.contextId } : {}),
          agent: this.agent,
          limit: params.pageSize || 20,
        },
        this.caller.principal,
      );
      const tasks = await Promise.all(
        page.items.map(async (run) => taskOfRun(await this.deps.runs.get(run.id, this.caller.principal))),
      );
      return {
        tasks,
        nextPageToken: page.next_cursor ?? '',
        pageSize: tasks.length,
        totalSize: tasks.length,
      };
    });
  }

  createTaskPushNotificationConfig(): Promise<never> {
    return Promise.reject(new PushNotificationNotSupportedError());
  }
  getTaskPushNotificationConfig(): Promise<never> {
    return Promise.reject(new PushNotificationNotSupportedError());
  }
  listTaskPushNotificationConfigs(): Promise<never> {
    return Promise.reject(new PushNotificationNotSupportedError());
  }
  deleteTaskPushNotificationConfig(): Promise<never> {
    return Promise.reject(new PushNotificationNotSupportedError());
  }

  private async *relay(events: RunEvents, input: Message): AsyncGenerator<StreamResponse, void, undefined> {
    try {
      for await (const event of events) yield* streamResponsesOf(event, input);
    } catch (err) {
      throw asA2aError(err);
    }
  }

  /** A new message: a turn of the agent, in the session its `contextId` names (a platform session id). */
  private turnOf(input: Message) {
    const message = input.parts
      .map((part) => (part.content?.$case === 'text' ? part.content.value : ''))
      .filter(Boolean)
      .join('\n\n');
    if (!message) throw invalidMessage('needs a text part');
    return {
      message,
      agent: this.agent,
      ...(input.contextId.startsWith('ses_') ? { session_id: input.contextId } : {}),
    };
  }

  /** A message on a task held for approval is the decision; on any other task it is refused. */
  private async decisionOf(input: Message): Promise<ToolDecision | undefined> {
    if (!input.taskId) return undefined;
    const run = await this.deps.runs.get(input.taskId, this.caller.principal);
    if (run.status !== 'awaiting_approval')
      throw new UnsupportedOperationError(
        `task ${input.taskId} is ${run.status}: only a task waiting for input takes a message; send a new message with its contextId`,
      );
    const answer = input.parts.find((part) => part.content?.$case === 'data')?.content?.value as
      { approve?: unknown; reason?: unknown; id?: unknown } | undefined;
    if (typeof answer?.approve !== 'boolean')
      throw invalidMessage(
        'answers the held call with a data part {"approve": true|false, "reason"?: string, "id"?: string}',
      );
    const held = run.approvals ?? [];
    const named = typeof answer.id === 'string' ? parseHeldCallId(answer.id) : undefined;
    const target = named
      ? held.find((call) => call.call_id === named.callId)
      : held.length === 1
        ? held[0]
        : undefined;
    if (!target) throw invalidMessage(`names the held call it answers (its \`id\`): ${held.length} are held`);
    return {
      action: answer.approve ? 'approve' : 'reject',
      call_id: target.call_id,
      hash: target.hash,
      ...(!answer.approve && typeof answer.reason === 'string' ? { reason: answer.reason } : {}),
    };
  }
}

function messageOf(params: SendMessageRequest): Message {
  if (!params.message)
    throw asA2aError(new InvalidParamsError([{ field: 'message', message: 'is required' }]));
  return params.message;
}

function invalidMessage(message: string): InvalidParamsError {
  return new InvalidParamsError([{ field: 'message.parts', message }], 'invalid message');
}

/** Runs `work`, answering a platform error as the A2A error the SDK writes as JSON-RPC. */
async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw asA2aError(err);
  }
}

/** A platform error in A2A's terms: a missing run is TaskNotFound; others keep their JSON-RPC code and details. */
function asA2aError(err: unknown): unknown {
  if (err instanceof A2AError) return err;
  const http = toHttpError(err);
  if (http.body.code === 'not_found') return new TaskNotFoundError(http.body.message);
  return new JsonRpcTransportError({
    jsonrpc: '2.0',
    id: null,
    error: {
      code: jsonRpcCode(http),
      message: http.body.message,
      data: [{ '@type': 'agentchassis', ...http.body }],
    },
  });
}
