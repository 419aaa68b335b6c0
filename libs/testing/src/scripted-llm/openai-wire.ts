import type { IncomingHttpHeaders } from 'node:http';
import type { PlannedReply } from './script-player';
import {
  DEFAULT_MODEL,
  contentText,
  conversationKey,
  credentialOf,
  newId,
  nowSeconds,
  roughTokens,
  jsonPieces,
  streamPieces,
  WireError,
  type WireFormat,
  type WireRequest,
} from './wire-common';
import { openAiPromptPieces, replyTokens } from './prompt-tokens';

/** OpenAI Chat Completions, as https://platform.openai.com/docs/api-reference/chat sends it. */
export interface OpenAiRequest extends WireRequest {
  model: string;
  includeUsage: boolean;
  promptTokens: number;
}

interface OpenAiMessage {
  role?: string;
  content?: unknown;
  tool_calls?: unknown;
}

export function readOpenAiRequest(
  body: Record<string, unknown>,
  headers: IncomingHttpHeaders,
): OpenAiRequest {
  const messages = body['messages'];
  if (!Array.isArray(messages) || messages.length === 0) {
    throw new WireError(400, "'messages' must be a non-empty array");
  }
  const typed = messages as OpenAiMessage[];
  const texts = typed.map((message) => contentText(message.content));
  const latestOf = (roles: string[]) => {
    const i = typed.findLastIndex((message) => roles.includes(message.role ?? ''));
    return i < 0 ? '' : texts[i];
  };
  const firstUser = typed.findIndex((message) => message.role === 'user');
  const streamOptions = body['stream_options'] as { include_usage?: boolean } | undefined;
  return {
    model: typeof body['model'] === 'string' ? body['model'] : DEFAULT_MODEL,
    stream: body['stream'] === true,
    includeUsage: streamOptions?.include_usage === true,
    promptTokens: roughTokens(texts.join('\n') + JSON.stringify(body['tools'] ?? '')),
    turn: {
      conversation: conversationKey(headers, firstUser < 0 ? '' : texts[firstUser]),
      index: typed.filter((message) => message.role === 'assistant').length,
      lastContent: latestOf(['user', 'tool']),
      lastUserContent: latestOf(['user']),
      apiKey: credentialOf(headers),
    },
  };
}

/** With the emulated cache on, the prompt's real tokens and what the cache served (`prompt_tokens_details`). */
function usageOf(reply: PlannedReply, request: OpenAiRequest) {
  const account = request.account;
  const prompt = reply.usage?.prompt_tokens ?? account?.prompt ?? request.promptTokens;
  const completion =
    reply.usage?.completion_tokens ??
    (account
      ? replyTokens(reply)
      : roughTokens(reply.text + JSON.stringify(reply.toolCalls.length ? reply.toolCalls : '')));
  const details = account
    ? { prompt_tokens_details: { cached_tokens: account.cached, cache_write_tokens: account.written } }
    : {};
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    ...details,
  };
}

function toolCallsOf(reply: PlannedReply) {
  return reply.toolCalls.map((call) => ({
    id: newId('call_'),
    type: 'function' as const,
    function: { name: call.name, arguments: JSON.stringify(call.arguments) },
  }));
}

export function openAiCompletion(reply: PlannedReply, request: OpenAiRequest): object {
  const toolCalls = toolCallsOf(reply);
  return {
    id: newId('chatcmpl-'),
    object: 'chat.completion',
    created: nowSeconds(),
    model: request.model,
    system_fingerprint: 'fp_scripted',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: reply.text === '' && toolCalls.length ? null : reply.text,
          refusal: null,
          ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
        },
        logprobs: null,
        finish_reason: reply.finishReason,
      },
    ],
    usage: usageOf(reply, request),
  };
}

/** The `data:` payloads of a streamed completion, in order; the caller ends with `[DONE]`. */
export function openAiChunks(reply: PlannedReply, request: OpenAiRequest): object[] {
  const base = {
    id: newId('chatcmpl-'),
    object: 'chat.completion.chunk',
    created: nowSeconds(),
    model: request.model,
  };
  const usageField = request.includeUsage ? { usage: null } : {};
  const chunk = (delta: object, finishReason: string | null = null) => ({
    ...base,
    system_fingerprint: 'fp_scripted',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    ...usageField,
  });
  const chunks: object[] = [chunk({ role: 'assistant', content: '', refusal: null })];
  for (const piece of streamPieces(reply.text)) chunks.push(chunk({ content: piece }));
  toolCallsOf(reply).forEach((call, index) => {
    chunks.push(
      chunk({
        tool_calls: [
          { index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } },
        ],
      }),
    );
    for (const piece of jsonPieces(call.function.arguments)) {
      chunks.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  });
  chunks.push(chunk({}, reply.finishReason));
  if (request.includeUsage) chunks.push({ ...base, choices: [], usage: usageOf(reply, request) });
  return chunks;
}

const OPENAI_ERRORS: Record<number, { type: string; code: string | null; message: string }> = {
  400: { type: 'invalid_request_error', code: null, message: 'Bad request.' },
  401: { type: 'invalid_request_error', code: 'invalid_api_key', message: 'Incorrect API key provided.' },
  403: { type: 'invalid_request_error', code: 'unsupported_country_region_territory', message: 'Forbidden.' },
  404: { type: 'invalid_request_error', code: 'model_not_found', message: 'The model does not exist.' },
  429: { type: 'requests', code: 'rate_limit_exceeded', message: 'Rate limit reached for requests.' },
  500: {
    type: 'server_error',
    code: null,
    message: 'The server had an error while processing your request.',
  },
  503: {
    type: 'server_error',
    code: null,
    message: 'The engine is currently overloaded, please try again later.',
  },
};

export function openAiErrorBody(status: number, message?: string): object {
  const known = OPENAI_ERRORS[status] ?? OPENAI_ERRORS[status >= 500 ? 500 : 400];
  return { error: { message: message ?? known.message, type: known.type, param: null, code: known.code } };
}

export const openAiWire: WireFormat<OpenAiRequest> = {
  read: readOpenAiRequest,
  promptPieces: openAiPromptPieces,
  cache: 'automatic',
  complete: openAiCompletion,
  stream: (reply, request) => [...openAiChunks(reply, request).map((data) => ({ data })), { data: '[DONE]' }],
  errorBody: openAiErrorBody,
};
