import {
  type AgentRunRequest,
  CLIENT_CALL_ID_PATTERN,
  type ChatCompletionRequest,
  type HistoryMessage,
  InvalidParamsError,
  MAX_MESSAGE_CHARS,
  type OpenAiChatMessage,
  type OpenAiContent,
} from '@app/contracts';

/**
 * A conversation as the platform's run request: the one reader of the doors that take a whole
 * conversation (Chat Completions; Responses and Anthropic Messages, whose items and blocks are
 * first written as these messages). An OpenAI request as the platform's run request. The new input is the trailing user messages
 * (and the tool messages just before them). With a session (`X-Session-Id`) that is all that is
 * sent: the server holds the history. Without one, every earlier message becomes the history of a
 * new session. System (and developer) messages are added to the agent's prompt, every time.
 * Tool messages answer a run paused for client tool calls: their ids name that run.
 */
export function toRunRequest(body: ChatCompletionRequest, sessionId?: string): AgentRunRequest {
  const instructions = body.messages
    .filter((m) => m.role === 'system' || m.role === 'developer')
    .map((m) => textOf(m.content))
    .filter(Boolean)
    .join('\n\n');
  const indexed = body.messages.map((message, index) => ({ message, index }));
  const turns = indexed.filter(({ message }) => message.role !== 'system' && message.role !== 'developer');
  let end = turns.length;
  while (end > 0 && turns[end - 1].message.role === 'user') end--;
  const users = turns.slice(end);
  let start = end;
  while (start > 0 && turns[start - 1].message.role === 'tool') start--;
  const tools = turns.slice(start, end);
  if (users.length === 0 && tools.length === 0)
    throw invalid('messages', 'the last message must be a user or tool message');
  const message = users.map(({ message }) => textOf(message.content)).join('\n\n');
  // Named as the client wrote it: `message` is the platform's field, not the caller's.
  if (users.length > 0 && message === '')
    throw invalid(`messages[${users.at(-1)!.index}].content`, 'a user message needs text');
  if (message.length > MAX_MESSAGE_CHARS)
    throw invalid('messages', `the new user text exceeds ${MAX_MESSAGE_CHARS} characters`);
  const clientTools =
    body.tool_choice === 'none'
      ? []
      : (body.tools ?? []).map(({ function: fn }) => ({
          name: fn.name,
          ...(fn.description ? { description: fn.description } : {}),
          ...(fn.parameters ? { parameters: fn.parameters } : {}),
        }));
  const history =
    sessionId || tools.length > 0 ? [] : turns.slice(0, start).map(({ message }) => toHistory(message));
  return {
    message,
    agent: body.model,
    ...(sessionId ? { session_id: sessionId } : {}),
    ...(instructions ? { instructions } : {}),
    ...(clientTools.length > 0 ? { client_tools: clientTools } : {}),
    ...(tools.length > 0
      ? { tool_results: tools.map(({ message, index }) => toolResult(message, index)) }
      : {}),
    ...(history.length > 0 ? { history } : {}),
  };
}

export function textOf(content: OpenAiContent | undefined): string {
  if (content === null || content === undefined) return '';
  if (typeof content === 'string') return content;
  return content.map((part) => part.text).join('');
}

function toolResult(message: OpenAiChatMessage, index: number) {
  const id = message.tool_call_id ?? '';
  if (!CLIENT_CALL_ID_PATTERN.test(id))
    throw invalid(
      `messages[${index}].tool_call_id`,
      `'${id.slice(0, 80)}' is not a tool call this server asked for`,
    );
  return { tool_call_id: id, content: textOf(message.content) };
}

/**
 * An earlier message of a stateless conversation. Tool exchanges the client replays become text:
 * the session keeps only user and assistant messages.
 */
function toHistory(message: OpenAiChatMessage): HistoryMessage {
  const text = textOf(message.content);
  if (message.role === 'tool')
    return { role: 'user', content: `Tool result (${message.tool_call_id ?? 'call'}): ${text}` };
  if (message.role === 'assistant') {
    const calls = (message.tool_calls ?? []).map(
      (call) => `Called tool ${call.function.name} (${call.id}) with ${call.function.arguments}`,
    );
    return { role: 'assistant', content: [text, ...calls].filter(Boolean).join('\n') };
  }
  return { role: 'user', content: text };
}

function invalid(field: string, message: string): InvalidParamsError {
  return new InvalidParamsError([{ field, message }], 'invalid chat completion request');
}
