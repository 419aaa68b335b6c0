import type { IncomingHttpHeaders } from 'node:http';
import type { SsePayload } from './wire-common';
import type { PlannedReply } from './script-player';
import {
  DEFAULT_MODEL,
  WireError,
  contentText,
  conversationKey,
  credentialOf,
  newId,
  roughTokens,
  jsonPieces,
  streamPieces,
  type WireFormat,
  type WireRequest,
} from './wire-common';
import { anthropicPromptPieces, replyTokens } from './prompt-tokens';

/** Anthropic Messages, as https://docs.anthropic.com/en/api/messages sends it. */
export interface AnthropicRequest extends WireRequest {
  model: string;
  promptTokens: number;
}

interface AnthropicMessage {
  role?: string;
  content?: unknown;
}

const STOP_REASONS = { stop: 'end_turn', tool_calls: 'tool_use', length: 'max_tokens' } as const;

/** Text the human wrote: string content or `text` blocks, not tool results. */
function humanText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((block: { type?: string }) => block?.type === 'text')
    .map((block: { text?: string }) => block.text ?? '')
    .join('');
}

export function readAnthropicRequest(
  body: Record<string, unknown>,
  headers: IncomingHttpHeaders,
): AnthropicRequest {
  const messages = body['messages'];
  if (!Array.isArray(messages) || messages.length === 0) {
    throw new WireError(400, 'messages: at least one message is required');
  }
  if (typeof body['max_tokens'] !== 'number') throw new WireError(400, 'max_tokens: Field required');
  const typed = messages as AnthropicMessage[];
  const users = typed.filter((message) => message.role === 'user');
  const latestHuman = users.findLast((message) => humanText(message.content) !== '');
  const allText = [contentText(body['system']), ...typed.map((message) => contentText(message.content))];
  return {
    model: typeof body['model'] === 'string' ? body['model'] : DEFAULT_MODEL,
    stream: body['stream'] === true,
    promptTokens: roughTokens(allText.join('\n') + JSON.stringify(body['tools'] ?? '')),
    turn: {
      conversation: conversationKey(headers, contentText(users[0]?.content)),
      index: typed.filter((message) => message.role === 'assistant').length,
      lastContent: contentText(users.at(-1)?.content),
      lastUserContent: latestHuman ? humanText(latestHuman.content) : '',
      apiKey: credentialOf(headers),
    },
  };
}

/** `input_tokens` leaves out what the cache served and what was written to it, as Anthropic's does. */
function usageOf(reply: PlannedReply, request: AnthropicRequest) {
  const account = request.account ?? { prompt: request.promptTokens, cached: 0, written: 0 };
  const prompt = reply.usage?.prompt_tokens ?? account.prompt;
  return {
    input_tokens: Math.max(0, prompt - account.cached - account.written),
    output_tokens:
      reply.usage?.completion_tokens ??
      (request.account
        ? replyTokens(reply)
        : roughTokens(reply.text + JSON.stringify(reply.toolCalls.length ? reply.toolCalls : ''))),
    cache_creation_input_tokens: account.written,
    cache_read_input_tokens: account.cached,
  };
}

function contentBlocks(reply: PlannedReply) {
  const text = reply.text !== '' || reply.toolCalls.length === 0 ? [{ type: 'text', text: reply.text }] : [];
  const tools = reply.toolCalls.map((call) => ({
    type: 'tool_use',
    id: newId('toolu_'),
    name: call.name,
    input: call.arguments,
  }));
  return [...text, ...tools];
}

export function anthropicMessage(reply: PlannedReply, request: AnthropicRequest): object {
  return {
    id: newId('msg_'),
    type: 'message',
    role: 'assistant',
    model: request.model,
    content: contentBlocks(reply),
    stop_reason: STOP_REASONS[reply.finishReason],
    stop_sequence: null,
    usage: usageOf(reply, request),
  };
}

export function anthropicEvents(reply: PlannedReply, request: AnthropicRequest): SsePayload[] {
  const usage = usageOf(reply, request);
  const message = {
    id: newId('msg_'),
    type: 'message',
    role: 'assistant',
    model: request.model,
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { ...usage, output_tokens: 1 },
  };
  const events: SsePayload[] = [
    { event: 'message_start', data: { type: 'message_start', message } },
    { event: 'ping', data: { type: 'ping' } },
  ];
  contentBlocks(reply).forEach((block, index) => events.push(...blockEvents(block, index)));
  events.push(
    {
      event: 'message_delta',
      data: {
        type: 'message_delta',
        delta: { stop_reason: STOP_REASONS[reply.finishReason], stop_sequence: null },
        usage: { output_tokens: usage.output_tokens },
      },
    },
    { event: 'message_stop', data: { type: 'message_stop' } },
  );
  return events;
}

type Block = { type: string; text?: string; id?: string; name?: string; input?: Record<string, unknown> };

function blockEvents(block: Block, index: number): SsePayload[] {
  const isText = block.type === 'text';
  const start = isText ? { type: 'text', text: '' } : { ...block, input: {} };
  const deltas = isText
    ? streamPieces(block.text ?? '').map((text) => ({ type: 'text_delta', text }))
    : jsonPieces(JSON.stringify(block.input)).map((partial_json) => ({
        type: 'input_json_delta',
        partial_json,
      }));
  return [
    { event: 'content_block_start', data: { type: 'content_block_start', index, content_block: start } },
    ...deltas.map((delta) => ({
      event: 'content_block_delta',
      data: { type: 'content_block_delta', index, delta },
    })),
    { event: 'content_block_stop', data: { type: 'content_block_stop', index } },
  ];
}

const ANTHROPIC_ERRORS: Record<number, { type: string; message: string }> = {
  400: { type: 'invalid_request_error', message: 'Invalid request.' },
  401: { type: 'authentication_error', message: 'invalid x-api-key' },
  403: {
    type: 'permission_error',
    message: 'Your API key does not have permission to use the specified resource.',
  },
  404: { type: 'not_found_error', message: 'The requested resource could not be found.' },
  413: { type: 'request_too_large', message: 'Request exceeds the maximum allowed number of bytes.' },
  429: { type: 'rate_limit_error', message: 'Number of requests has exceeded your rate limit.' },
  500: { type: 'api_error', message: 'Internal server error' },
  529: { type: 'overloaded_error', message: 'Overloaded' },
};

export function anthropicErrorBody(status: number, message?: string): object {
  const known = ANTHROPIC_ERRORS[status] ?? ANTHROPIC_ERRORS[status >= 500 ? 500 : 400];
  return {
    type: 'error',
    error: { type: known.type, message: message ?? known.message },
    request_id: newId('req_'),
  };
}

export const anthropicWire: WireFormat<AnthropicRequest> = {
  read: readAnthropicRequest,
  promptPieces: anthropicPromptPieces,
  cache: 'breakpoints',
  complete: anthropicMessage,
  stream: anthropicEvents,
  errorBody: anthropicErrorBody,
};
