import type { AgentProtocol, FunctionDefinition } from '@app/contracts';
import { parseAssistantReply } from '@app/protocol';
import type { PromptSet } from '../prompts/prompt-set';
import type { ChatMessage, CompletionResult, NativeTool } from './model-client';
import type { ToolCall, ToolOutcome } from '../tools/tool-call';

export type ReadReply =
  | { kind: 'calls'; calls: ToolCall[]; thought?: string }
  | { kind: 'final'; answer: string }
  | { kind: 'invalid'; error: string };

/**
 * The protocol-specific half of a ReAct step: what a reply means, how it is replayed to the model,
 * and how results go back. Only the model's own reply is ever parsed: a result that contains
 * `<call>` is data and stays data. An unreadable reply's error is its repair turn, in the agent's
 * prompts.
 */
export function readReply(result: CompletionResult, protocol: AgentProtocol, prompts: PromptSet): ReadReply {
  if (protocol === 'native') {
    if (result.toolCalls.length === 0) return { kind: 'final', answer: result.text };
    const calls = result.toolCalls.map((call) => ({ name: call.name, params: call.arguments, id: call.id }));
    return result.text.trim()
      ? { kind: 'calls', calls, thought: result.text.trim() }
      : { kind: 'calls', calls };
  }
  const reply = parseAssistantReply(result.text, protocol);
  if (reply.kind !== 'invalid') return reply;
  const repair = protocol === 'json-action' ? 'repair_reply_json_action' : 'repair_reply_xml_toon';
  return { kind: 'invalid', error: prompts.render(repair, { error: reply.problem }) };
}

export function assistantTurn(result: CompletionResult, protocol: AgentProtocol): ChatMessage {
  return protocol === 'native' && result.toolCalls.length > 0
    ? { role: 'assistant', content: result.text, toolCalls: result.toolCalls }
    : { role: 'assistant', content: result.text };
}

/** Native results answer each tool call; text protocols get one message with every `<result>`, in call order. */
export function resultTurns(outcomes: ToolOutcome[], protocol: AgentProtocol): ChatMessage[] {
  if (protocol === 'native') {
    return outcomes.map((outcome) => ({
      role: 'tool',
      toolCallId: outcome.call.id,
      name: outcome.call.name,
      content: outcome.observation,
    }));
  }
  return [{ role: 'user', content: outcomes.map((outcome) => outcome.observation).join('\n') }];
}

export function repairTurn(error: string): ChatMessage {
  return { role: 'user', content: error };
}

export function nativeTools(functions: FunctionDefinition[]): NativeTool[] {
  return functions.map((fn) => ({ name: fn.name, description: fn.description, parameters: fn.parameters }));
}
