import {
  type AgentRunRequest,
  type AnthropicMessageParam,
  type AnthropicMessagesRequest,
  type ChatCompletionRequest,
  type FieldError,
  InvalidParamsError,
  type OpenAiChatMessage,
} from '@app/contracts';
import { toRunRequest } from '../conversation';

type Block = Record<string, unknown>;

/**
 * An Anthropic Messages request as the platform's run request: its messages written as the one
 * conversation the doors read (text blocks as text, an assistant's `tool_use` blocks as its tool
 * calls, a user's `tool_result` blocks as tool messages answering the run that asked), `system` as
 * instructions, custom tools as the caller's tools.
 */
export function toAnthropicRun(body: AnthropicMessagesRequest, sessionId?: string): AgentRunRequest {
  const messages: OpenAiChatMessage[] = [];
  const origin: number[] = [];
  body.messages.forEach((message, index) => {
    for (const written of toMessages(message, index)) {
      messages.push(written);
      origin.push(index);
    }
  });
  const system = body.system === undefined ? '' : textOf(body.system, 'system');
  const offset = system ? 1 : 0;
  if (system) messages.unshift({ role: 'system', content: system });
  const chat: ChatCompletionRequest = {
    model: body.model,
    messages,
    ...(body.tools?.length
      ? {
          tools: body.tools.map((tool) => ({
            type: 'function' as const,
            function: {
              name: tool.name,
              ...(tool.description ? { description: tool.description } : {}),
              parameters: tool.input_schema,
            },
          })),
        }
      : {}),
    ...(body.tool_choice ? { tool_choice: body.tool_choice.type } : {}),
  };
  try {
    return toRunRequest(chat, sessionId);
  } catch (err) {
    if (!(err instanceof InvalidParamsError)) throw err;
    const fields: FieldError[] = err.fields.map(({ field, message }) => ({
      field: field
        .replace(/^messages\[(\d+)\]/, (_, i: string) => `messages[${origin[Number(i) - offset] ?? i}]`)
        .replace(/\.tool_call_id$/, '.content.tool_use_id'),
      message,
    }));
    throw new InvalidParamsError(fields, 'invalid messages request');
  }
}

/** One Anthropic message as conversation messages: a user's tool results first, then its text. */
function toMessages(message: AnthropicMessageParam, index: number): OpenAiChatMessage[] {
  const field = `messages[${index}].content`;
  if (typeof message.content === 'string') return [{ role: message.role, content: message.content }];
  const blocks = message.content as Block[];
  if (message.role === 'assistant') {
    const text = blocks
      .filter((b) => b.type === 'text')
      .map((b, i) => stringOf(b.text, `${field}[${i}].text`));
    const calls = blocks
      .map((block, i) => ({ block, i }))
      .filter(({ block }) => block.type === 'tool_use')
      .map(({ block, i }) => ({
        id: stringOf(block.id, `${field}[${i}].id`),
        type: 'function' as const,
        function: {
          name: stringOf(block.name, `${field}[${i}].name`),
          arguments: JSON.stringify(block.input ?? {}),
        },
      }));
    refuseOthers(blocks, field, ['text', 'tool_use', 'thinking', 'redacted_thinking']);
    return [{ role: 'assistant', content: text.join(''), ...(calls.length ? { tool_calls: calls } : {}) }];
  }
  refuseOthers(blocks, field, ['text', 'tool_result']);
  const results: OpenAiChatMessage[] = blocks
    .map((block, i) => ({ block, i }))
    .filter(({ block }) => block.type === 'tool_result')
    .map(({ block, i }) => ({
      role: 'tool',
      tool_call_id: stringOf(block.tool_use_id, `${field}[${i}].tool_use_id`),
      content: resultText(block, `${field}[${i}].content`),
    }));
  const text = blocks.filter((b) => b.type === 'text').map((b, i) => stringOf(b.text, `${field}[${i}].text`));
  return [...results, ...(text.length ? [{ role: 'user' as const, content: text.join('\n\n') }] : [])];
}

/** A tool result's content; marked when the caller says the call failed. */
function resultText(block: Block, field: string): string {
  const text = block.content === undefined ? '' : textOf(block.content as string | Block[], field);
  return block.is_error === true ? `Error: ${text}` : text;
}

function textOf(content: string | Block[], field: string): string {
  if (typeof content === 'string') return content;
  refuseOthers(content, field, ['text']);
  return content.map((block, i) => stringOf(block.text, `${field}[${i}].text`)).join('');
}

function refuseOthers(blocks: Block[], field: string, allowed: string[]): void {
  const i = blocks.findIndex((block) => !allowed.includes(String(block.type)));
  if (i >= 0)
    throw invalid(
      `${field}[${i}].type`,
      `'${String(blocks[i].type).slice(0, 40)}' blocks are not supported here (${allowed.join(', ')})`,
    );
}

function stringOf(value: unknown, field: string): string {
  if (typeof value === 'string') return value;
  throw invalid(field, 'must be a string');
}

function invalid(field: string, message: string): InvalidParamsError {
  return new InvalidParamsError([{ field, message }], 'invalid messages request');
}
