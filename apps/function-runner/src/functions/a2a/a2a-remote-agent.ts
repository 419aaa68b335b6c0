import { randomUUID } from 'node:crypto';
import { type AgentCard, type Message, type Part, Role, type StreamResponse, TaskState } from '@a2a-js/sdk';
import {
  type Client,
  ClientFactory,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
} from '@a2a-js/sdk/client';
import type { A2aAgentConfig } from '@app/config';
import { FunctionFailedError, type FunctionResult, UnavailableError } from '@app/contracts';
import { judgeAddress, RequestGuard } from '@app/functions';

/** What one call of a remote agent asks: a message, in a context, or answering a task that waits. */
export interface A2aCallParams {
  message: string;
  context_id?: string;
  task_id?: string;
  /** Structured input sent beside the text (e.g. `{"approve": true}` for a task that asked). */
  data?: Record<string, unknown>;
}

/** Where a task stands as the stream leaves it. */
interface TaskView {
  taskId: string;
  contextId: string;
  state: TaskState;
  status: Part[];
  artifacts: string[];
}

/**
 * One remote A2A agent, reached with the official client (its card resolved once, then kept): a
 * call sends one message and follows the task to its end or its pause. A finished task is the
 * call's result; one that needs input (`input-required`, `auth-required`) is a result too, saying
 * what it asks and how to answer (the same function with `task_id`); one that failed, was rejected
 * or cancelled is a function error for the model.
 */
export class A2aRemoteAgent {
  private client?: Promise<Client>;
  card?: AgentCard;

  constructor(readonly config: A2aAgentConfig) {}

  get functionName(): string {
    return `a2a_${this.config.name}`;
  }

  /** The card, fetched once (again after a failure); the SSRF guard first, unless the config opts out. */
  connect(): Promise<Client> {
    this.client ??= this.open().catch((err: unknown) => {
      this.client = undefined;
      throw err;
    });
    return this.client;
  }

  async call(params: A2aCallParams, signal: AbortSignal): Promise<FunctionResult> {
    const client = await this.connect();
    const message: Message = {
      messageId: randomUUID(),
      contextId: params.context_id ?? '',
      taskId: params.task_id ?? '',
      role: Role.ROLE_USER,
      parts: [
        {
          content: { $case: 'text', value: params.message },
          metadata: undefined,
          filename: '',
          mediaType: 'text/plain',
        },
      ],
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    };
    const request = { tenant: '', message, configuration: undefined, metadata: undefined };
    const view: TaskView = {
      taskId: '',
      contextId: '',
      state: TaskState.TASK_STATE_SUBMITTED,
      status: [],
      artifacts: [],
    };
    if (this.card?.capabilities?.streaming) {
      for await (const event of client.sendMessageStream(request, { signal })) follow(view, event);
    } else {
      const answer = await client.sendMessage(request, { signal });
      follow(view, {
        payload:
          'messageId' in answer ? { $case: 'message', value: answer } : { $case: 'task', value: answer },
      });
    }
    return this.resultOf(view);
  }

  private resultOf(view: TaskView): FunctionResult {
    const said = textOf(view.status);
    const data = { task_id: view.taskId, context_id: view.contextId, state: stateName(view.state) };
    switch (view.state) {
      case TaskState.TASK_STATE_COMPLETED:
        return { message: view.artifacts.join('\n\n') || said, data };
      case TaskState.TASK_STATE_INPUT_REQUIRED:
      case TaskState.TASK_STATE_AUTH_REQUIRED:
        return {
          message:
            `${this.config.name} needs input: ${said || '(no text)'}. Answer with ${this.functionName} ` +
            `{message, task_id: "${view.taskId}", context_id: "${view.contextId}"} (and \`data\` when it asks for structured input).`,
          data: { ...data, asks: view.status.map(partValue) },
        };
      case TaskState.TASK_STATE_FAILED:
      case TaskState.TASK_STATE_REJECTED:
      case TaskState.TASK_STATE_CANCELED:
        throw new FunctionFailedError(
          `${this.config.name}: the task ${stateName(view.state)}${said ? `: ${said}` : ''}`,
        );
      default:
        // a message instead of a task, or a stream that ended with the task still working
        return { message: view.artifacts.join('\n\n') || said, data };
    }
  }

  private async open(): Promise<Client> {
    const url = new URL(this.config.url);
    const guard = new RequestGuard({
      allowedDomains: ['*'],
      allowedMethods: ['GET', 'POST'],
      judge: this.config.allow_private_network ? () => ({ allowed: true }) : judgeAddress,
    });
    await guard.check(url).catch((err: Error) => {
      throw new UnavailableError(
        `A2A agent '${this.config.name}' refused by the SSRF guard: ${err.message.replace(/^http_request blocked: /, '')} ` +
          '(set allow_private_network: true for an agent on a loopback or private address)',
      );
    });
    const headers = this.config.headers;
    const fetchImpl: typeof fetch = (input, init) => {
      const merged = new Headers(init?.headers);
      for (const [name, value] of Object.entries(headers)) merged.set(name, value);
      return fetch(input, { ...init, headers: merged, redirect: 'error' });
    };
    const base = this.config.url.endsWith('/') ? this.config.url : `${this.config.url}/`;
    try {
      const resolver = new DefaultAgentCardResolver({ fetchImpl });
      this.card = await resolver.resolve(base);
      return await new ClientFactory({
        transports: [new JsonRpcTransportFactory({ fetchImpl })],
        cardResolver: resolver,
      }).createFromAgentCard(this.card);
    } catch (err) {
      throw new UnavailableError(`A2A agent '${this.config.name}' unreachable: ${(err as Error).message}`);
    }
  }
}

function follow(view: TaskView, event: StreamResponse): void {
  const payload = event.payload;
  if (!payload) return;
  if (payload.$case === 'task') {
    const task = payload.value;
    Object.assign(view, { taskId: task.id, contextId: task.contextId });
    if (task.status) setStatus(view, task.status.state, task.status.message?.parts);
    view.artifacts = task.artifacts.map((a) => textOf(a.parts)).filter(Boolean);
  } else if (payload.$case === 'statusUpdate') {
    const update = payload.value;
    Object.assign(view, { taskId: update.taskId, contextId: update.contextId });
    if (update.status) setStatus(view, update.status.state, update.status.message?.parts);
  } else if (payload.$case === 'artifactUpdate') {
    const text = textOf(payload.value.artifact?.parts ?? []);
    if (!text) return;
    if (payload.value.append && view.artifacts.length) view.artifacts[view.artifacts.length - 1] += text;
    else view.artifacts.push(text);
  } else if (payload.$case === 'message') {
    view.contextId = payload.value.contextId;
    view.status = payload.value.parts;
    view.state = TaskState.TASK_STATE_COMPLETED;
  }
}

function setStatus(view: TaskView, state: TaskState, parts: Part[] | undefined): void {
  view.state = state;
  if (parts?.length) view.status = parts;
}

function textOf(parts: Part[]): string {
  return parts
    .map((p) => (p.content?.$case === 'text' ? p.content.value : ''))
    .filter(Boolean)
    .join('\n');
}

function partValue(part: Part): unknown {
  const content = part.content;
  if (!content) return null;
  return content.$case === 'raw' ? `(${content.value.length} bytes)` : content.value;
}

function stateName(state: TaskState): string {
  return (TaskState[state] ?? 'unknown')
    .replace(/^TASK_STATE_/, '')
    .toLowerCase()
    .replace(/_/g, '-');
}
