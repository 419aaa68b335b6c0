import {
  type AgentRunRequest,
  type AgUiRunInput,
  type ChatCompletionRequest,
  type FieldError,
  ID_PATTERN,
  InvalidParamsError,
  type OpenAiChatMessage,
  type ToolDecision,
} from '@app/contracts';
import { toRunRequest } from '../conversation';
import { parseHeldCallId } from '../held-call-id';

/** What an AG-UI run input asks: a turn, or answers to the interrupts a run ended with. */
export type AgUiTurn =
  { kind: 'turn'; run: AgentRunRequest } | { kind: 'resume'; runId: string; decisions: ToolDecision[] };

type Message = Record<string, unknown>;

/**
 * AG-UI's run input as the platform's run request: its messages written as the one conversation
 * the doors read (an assistant's `toolCalls` as its tool calls, `tool` messages answering the run
 * that asked, for frontend tools), its tools as the caller's, a `threadId` naming a platform
 * session continuing it. `resume` entries answer a run's interrupts (calls held for approval).
 */
/** `agent`: the agent named in the path; none: the platform's default (or the session's). */
export function toAgUiTurn(input: AgUiRunInput, agent?: string): AgUiTurn {
  if (input.resume?.length) return resumeOf(input);
  const sessionId =
    ID_PATTERN.test(input.threadId) && input.threadId.startsWith('ses_') ? input.threadId : undefined;
  const messages = input.messages.map((message, index) => toMessage(message, index));
  const chat: ChatCompletionRequest = {
    model: agent ?? '',
    messages,
    ...(input.tools?.length
      ? {
          tools: input.tools.map((tool) => ({
            type: 'function' as const,
            function: {
              name: tool.name,
              ...(tool.description ? { description: tool.description } : {}),
              ...(tool.parameters ? { parameters: tool.parameters } : {}),
            },
          })),
        }
      : {}),
  };
  try {
    const { agent: _named, ...run } = toRunRequest(chat, sessionId);
    return { kind: 'turn', run: agent ? { ...run, agent } : run };
  } catch (err) {
    if (!(err instanceof InvalidParamsError)) throw err;
    const fields: FieldError[] = err.fields.map(({ field, message }) => ({
      field: field.replace(/\.tool_call_id$/, '.toolCallId'),
      message,
    }));
    throw new InvalidParamsError(fields, 'invalid run input');
  }
}

const ROLES = new Set(['user', 'assistant', 'system', 'developer', 'tool']);

function toMessage(message: Message, index: number): OpenAiChatMessage {
  const field = `messages[${index}]`;
  const role = message.role;
  if (typeof role !== 'string' || !ROLES.has(role))
    throw invalid(`${field}.role`, 'must be user, assistant, system, developer or tool');
  const content = textOf(message.content, `${field}.content`);
  if (role === 'tool')
    return { role: 'tool', tool_call_id: stringOf(message.toolCallId, `${field}.toolCallId`), content };
  if (role !== 'assistant') return { role: role as OpenAiChatMessage['role'], content };
  const calls = Array.isArray(message.toolCalls) ? (message.toolCalls as Message[]) : [];
  return {
    role: 'assistant',
    content,
    ...(calls.length
      ? {
          tool_calls: calls.map((call, i) => {
            const fn = (call.function ?? {}) as Message;
            return {
              id: stringOf(call.id, `${field}.toolCalls[${i}].id`),
              type: 'function' as const,
              function: {
                name: stringOf(fn.name, `${field}.toolCalls[${i}].function.name`),
                arguments: typeof fn.arguments === 'string' ? fn.arguments : '{}',
              },
            };
          }),
        }
      : {}),
  };
}

/** A string, or text parts; other parts (images, files) are refused by name. */
function textOf(content: unknown, field: string): string {
  if (content === undefined || content === null) return '';
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) throw invalid(field, 'must be a string or an array of text parts');
  return content
    .map((part: unknown, i) => {
      const { type, text } = (part ?? {}) as { type?: unknown; text?: unknown };
      if (type === 'text' && typeof text === 'string') return text;
      throw invalid(
        `${field}[${i}]`,
        `only text parts are read; ${String(type).slice(0, 40)} is not supported`,
      );
    })
    .join('');
}

function stringOf(value: unknown, field: string): string {
  if (typeof value === 'string' && value.length > 0) return value;
  throw invalid(field, 'must be a non-empty string');
}

/** Resume entries: a decision for each call the run holds (`payload.approve`; cancelled rejects). */
function resumeOf(input: AgUiRunInput): AgUiTurn {
  const entries = input.resume ?? [];
  const decisions = entries.map((entry, index) => {
    const held = parseHeldCallId(entry.interruptId);
    if (!held) throw invalid(`resume[${index}].interruptId`, 'is not an interrupt this server made');
    const payload = (entry.payload ?? {}) as { approve?: unknown; reason?: unknown };
    if (entry.status === 'resolved' && typeof payload.approve !== 'boolean')
      throw invalid(`resume[${index}].payload.approve`, 'must be true or false');
    const approve = entry.status === 'resolved' && payload.approve === true;
    const reason = typeof payload.reason === 'string' ? payload.reason : undefined;
    return {
      runId: held.runId,
      decision: {
        action: approve ? 'approve' : 'reject',
        call_id: held.callId,
        hash: held.hash,
        ...(!approve && reason ? { reason } : {}),
      } as ToolDecision,
    };
  });
  const runIds = new Set(decisions.map((d) => d.runId));
  if (runIds.size > 1) throw invalid('resume', 'the entries must answer the interrupts of one run');
  return { kind: 'resume', runId: decisions[0].runId, decisions: decisions.map((d) => d.decision) };
}

function invalid(field: string, message: string): InvalidParamsError {
  return new InvalidParamsError([{ field, message }], 'invalid run input');
}
