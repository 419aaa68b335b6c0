import { randomUUID } from 'node:crypto';
import { type Message, type Part, Role, type StreamResponse } from '@a2a-js/sdk';
import {
  type Client as A2aClient,
  ClientFactory,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
} from '@a2a-js/sdk/client';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { type AgentSubscriber, HttpAgent } from '@ag-ui/client';
import { AgentChassisClient } from '@app/client';

/**
 * The gateway's doors as their own clients use them, each request sent to the gateway a test
 * names at that moment: one conversation, its requests landing on one gateway then the other.
 */

/** `url` sent to `gateway` instead (its path and query kept). */
function onGateway(url: string | URL, gateway: string): URL {
  const moved = new URL(url);
  moved.host = new URL(gateway).host;
  return moved;
}

/** A fetch that sends each request to the gateway `at()` names when it is sent, and notes where. */
function routed(at: () => string, seen: string[]): typeof fetch {
  return (input, init) => {
    const gateway = at();
    seen.push(gateway);
    return fetch(onGateway(input instanceof Request ? input.url : input, gateway), init);
  };
}

/** The MCP SDK's client, initialized on the gateway `at()` names then; later requests go where it names then. */
export async function mcpClient(at: () => string, key: string) {
  const seen: string[] = [];
  const client = new McpClient({ name: 'cross-gateway-spec', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${at()}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
    fetch: routed(at, seen),
  });
  await client.connect(transport);
  return { client, transport, seen };
}

/** The `openai` package's client of one gateway's `/v1`. */
export const openaiOn = (gateway: string, key: string) =>
  new OpenAI({ apiKey: key, baseURL: `${gateway}/v1`, maxRetries: 0 });

/** The `@anthropic-ai/sdk` client of one gateway's `/v1/messages`. */
export const anthropicOn = (gateway: string, key: string) =>
  new Anthropic({ apiKey: key, baseURL: gateway, maxRetries: 0 });

/** The `@ag-ui/client` agent `agent` of one gateway, its conversation one user message. */
export const agUiOn = (gateway: string, key: string, agent: string, message: string) =>
  new HttpAgent({
    url: `${gateway}/ag-ui/${agent}`,
    headers: { authorization: `Bearer ${key}` },
    initialMessages: [{ id: 'u1', role: 'user', content: message }],
  });

/** Runs an AG-UI agent once; the interrupts its run ended with (calls held for approval). */
export async function agUiRun(agent: HttpAgent, params: Parameters<HttpAgent['runAgent']>[0] = {}) {
  let interrupts: { id: string }[] = [];
  const subscriber: AgentSubscriber = {
    onRunFinishedEvent: (finished) => {
      if (finished.outcome === 'interrupt') interrupts = finished.interrupts ?? [];
    },
  };
  await agent.runAgent(params, subscriber);
  return interrupts;
}

/** The A2A SDK's client of one gateway's agent (its card names that gateway's address). */
export function a2aOn(gateway: string, key: string, agent: string): Promise<A2aClient> {
  const withKey: typeof fetch = (url, init) => {
    const headers = new Headers(init?.headers);
    headers.set('authorization', `Bearer ${key}`);
    return fetch(url, { ...init, headers });
  };
  return new ClientFactory({
    transports: [new JsonRpcTransportFactory({ fetchImpl: withKey })],
    cardResolver: new DefaultAgentCardResolver({ fetchImpl: withKey }),
  }).createFromUrl(`${gateway}/a2a/${agent}/`);
}

/** A user's text message on a new task. */
export function a2aMessage(text: string): Message {
  const part: Part = {
    content: { $case: 'text', value: text },
    metadata: undefined,
    filename: '',
    mediaType: '',
  };
  return {
    messageId: randomUUID(),
    contextId: '',
    taskId: '',
    role: Role.ROLE_USER,
    parts: [part],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

/** The texts of a task's stream: its artifacts' text parts, and its last state. */
export async function a2aOutcome(stream: AsyncIterable<StreamResponse>) {
  let text = '';
  let state: number | undefined;
  for await (const event of stream) {
    const payload = event.payload;
    if (payload?.$case === 'artifactUpdate')
      for (const part of payload.value.artifact?.parts ?? [])
        if (part.content?.$case === 'text') text += part.content.value;
    if (payload?.$case === 'statusUpdate') state = payload.value.status?.state;
    if (payload?.$case === 'task') state = payload.value.status?.state;
  }
  return { text, state };
}

/**
 * The console's client (libs/client, as apps/console uses it) whose requests go to the gateway
 * `at()` names; the first event stream it opens breaks after its `run_start` event, as a dropped
 * connection does (the client then resumes it after that event's id, wherever `at()` names).
 */
export function consoleClient(at: () => string, key: string, onBreak: () => void) {
  const seen: string[] = [];
  const send = routed(at, seen);
  let broken = false;
  const client = new AgentChassisClient({
    baseUrl: at(),
    apiKey: key,
    fetch: async (input, init) => {
      const res = await send(input, init);
      if (broken || !res.body || !res.headers.get('content-type')?.startsWith('text/event-stream'))
        return res;
      broken = true;
      const body = breakAfter(res.body, 'event: run_start', onBreak);
      return new Response(body, { status: res.status, headers: res.headers });
    },
  });
  return { client, seen };
}

/** `body` to the end of the event that `marker` begins, then an error as of a dropped connection. */
function breakAfter(body: ReadableStream<Uint8Array>, marker: string, onBreak: () => void) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let text = '';
  let sent = 0;
  let done = false;
  return new ReadableStream<Uint8Array>({
    // one chunk a pull: the break comes only once the reader has taken everything before it
    async pull(controller) {
      if (done) {
        onBreak();
        void reader.cancel();
        return controller.error(new TypeError('terminated'));
      }
      const next = await reader.read();
      if (next.done) return controller.close();
      text += decoder.decode(next.value, { stream: true });
      const at = text.indexOf(marker);
      const end = at < 0 ? -1 : text.indexOf('\n\n', at);
      // up to the end of the marked event: the rest of this chunk is never delivered
      const upTo = end < 0 ? text.length : end + 2;
      controller.enqueue(encoder.encode(text.slice(sent, upTo)));
      sent = upTo;
      done = end >= 0;
    },
  });
}
