import {
  type AgentRunRequest,
  type ChatCompletionRequest,
  type CreateResponseRequest,
  type FieldError,
  InvalidParamsError,
  type OpenAiChatMessage,
  type ToolDecision,
} from '@app/contracts';
import { toRunRequest } from '../conversation';
import { parseHeldCallId } from '../held-call-id';

/** What a Responses request asks: a turn, or decisions on calls a run holds for approval. */
export type ResponsesTurn =
  { kind: 'turn'; run: AgentRunRequest } | { kind: 'decide'; runId: string; decisions: ToolDecision[] };

type Item = Record<string, unknown>;

/**
 * A Responses request as the platform's run request. Its input items become the conversation the
 * Chat Completions door already reads (so the two doors read a conversation one way): messages by
 * role, replayed `function_call`s as an assistant's tool calls, `function_call_output`s as tool
 * messages answering the run that asked for them. `mcp_approval_response` items decide held calls
 * instead; they cannot be mixed with other input.
 */
export function toResponsesTurn(body: CreateResponseRequest, sessionId?: string): ResponsesTurn {
  const items: Item[] = typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : body.input;
  const approvals = items.filter((item) => item.type === 'mcp_approval_response');
  if (approvals.length > 0) return decisionsOf(items, approvals);
  const origin: number[] = [];
  const messages = items.map((item, index) => {
    origin.push(index);
    return toMessage(item, index);
  });
  if (body.instructions) messages.unshift({ role: 'system', content: body.instructions });
  const chat: ChatCompletionRequest = {
    model: body.model,
    messages,
    ...(body.tools?.length
      ? { tools: body.tools.map(({ type: _, ...fn }) => ({ type: 'function', function: fn })) }
      : {}),
    ...(body.tool_choice ? { tool_choice: body.tool_choice } : {}),
  };
  try {
    return { kind: 'turn', run: toRunRequest(chat, sessionId) };
  } catch (err) {
    throw err instanceof InvalidParamsError ? renamed(err, body.instructions ? -1 : 0) : err;
  }
}

function toMessage(item: Item, index: number): OpenAiChatMessage {
  const type = item.type ?? (item.role ? 'message' : undefined);
  switch (type) {
    case 'message':
      return { role: roleOf(item.role, index), content: textOf(item.content, `input[${index}].content`) };
    case 'function_call':
      return {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: stringOf(item.call_id, `input[${index}].call_id`),
            type: 'function',
            function: {
              name: stringOf(item.name, `input[${index}].name`),
              arguments: stringOf(item.arguments, `input[${index}].arguments`),
            },
          },
        ],
      };
    case 'function_call_output':
      return {
        role: 'tool',
        tool_call_id: stringOf(item.call_id, `input[${index}].call_id`),
        content: textOf(item.output, `input[${index}].output`),
      };
    default:
      throw invalid(
        `input[${index}].type`,
        `'${String(type).slice(0, 40)}' is not an input item this server reads: message, function_call, function_call_output or mcp_approval_response`,
      );
  }
}

const ROLES = new Set(['user', 'assistant', 'system', 'developer']);

function roleOf(role: unknown, index: number): OpenAiChatMessage['role'] {
  if (typeof role === 'string' && ROLES.has(role)) return role as OpenAiChatMessage['role'];
  throw invalid(`input[${index}].role`, 'must be user, assistant, system or developer');
}

/** A string, or text parts (`input_text`, `output_text`); images and files are refused by name. */
function textOf(content: unknown, field: string): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) throw invalid(field, 'must be a string or an array of text parts');
  return content
    .map((part: unknown, i) => {
      const { type, text } = (part ?? {}) as { type?: unknown; text?: unknown };
      if ((type === 'input_text' || type === 'output_text' || type === 'text') && typeof text === 'string')
        return text;
      throw invalid(
        `${field}[${i}]`,
        `only text parts (input_text, output_text) are read; ${String(type).slice(0, 40)} is not supported`,
      );
    })
    .join('');
}

function stringOf(value: unknown, field: string): string {
  if (typeof value === 'string' && value.length > 0) return value;
  throw invalid(field, 'must be a non-empty string');
}

/** `mcp_approval_response` items: decisions on the calls one run holds. */
function decisionsOf(items: Item[], approvals: Item[]): ResponsesTurn {
  if (approvals.length !== items.length)
    throw invalid('input', 'mcp_approval_response items cannot be mixed with other input items');
  const decisions = approvals.map((item, index): ToolDecision & { runId: string } => {
    const held = parseHeldCallId(
      typeof item.approval_request_id === 'string' ? item.approval_request_id : '',
    );
    if (!held)
      throw invalid(`input[${index}].approval_request_id`, 'is not an approval request this server made');
    if (typeof item.approve !== 'boolean') throw invalid(`input[${index}].approve`, 'must be true or false');
    const reason = typeof item.reason === 'string' ? item.reason : undefined;
    return {
      runId: held.runId,
      action: item.approve ? 'approve' : 'reject',
      call_id: held.callId,
      hash: held.hash,
      ...(!item.approve && reason ? { reason } : {}),
    };
  });
  const runIds = new Set(decisions.map((d) => d.runId));
  if (runIds.size > 1) throw invalid('input', 'the approval responses must answer the calls of one response');
  return { kind: 'decide', runId: decisions[0].runId, decisions: decisions.map(({ runId: _, ...d }) => d) };
}

/** Errors of the shared conversation reader, named as the Responses request names its fields. */
function renamed(err: InvalidParamsError, shift: number): InvalidParamsError {
  const fields: FieldError[] = err.fields.map(({ field, message }) => ({
    field: field
      .replace(/^messages\[(\d+)\]/, (_, i: string) => `input[${Number(i) + shift}]`)
      .replace(/\.tool_call_id$/, '.call_id')
      .replace(/^messages$/, 'input'),
    message,
  }));
  return new InvalidParamsError(fields, 'invalid response request');
}

function invalid(field: string, message: string): InvalidParamsError {
  return new InvalidParamsError([{ field, message }], 'invalid response request');
}
