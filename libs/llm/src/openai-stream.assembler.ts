import type OpenAI from 'openai';
import type { NativeToolCall, TokenUsage } from './llm-provider';
import { parseToolArguments } from './openai-messages';
import { fromOpenAiUsage } from './provider-usage';

interface PartialToolCall {
  id: string;
  name: string;
  arguments: string;
}

/**
 * Rebuilds a whole reply from streamed chunks: text deltas in order, tool calls whose id, name and
 * argument fragments arrive spread over chunks (keyed by `index`), usage from the final chunk.
 */
export class OpenAiStreamAssembler {
  private text = '';
  private readonly toolCalls = new Map<number, PartialToolCall>();
  private finishReason: string | null = null;
  private usage: TokenUsage = { prompt_tokens: 0, completion_tokens: 0 };
  private model = '';

  /** Returns the chunk's text delta ('' when it has none). */
  add(chunk: OpenAI.ChatCompletionChunk): string {
    this.model ||= chunk.model;
    if (chunk.usage) this.usage = fromOpenAiUsage(chunk.usage);
    const choice = chunk.choices?.[0];
    if (!choice) return '';
    this.finishReason = choice.finish_reason ?? this.finishReason;
    for (const delta of choice.delta?.tool_calls ?? []) this.addToolCallDelta(delta);
    const text = choice.delta?.content ?? '';
    this.text += text;
    return text;
  }

  private addToolCallDelta(delta: OpenAI.ChatCompletionChunk.Choice.Delta.ToolCall): void {
    const call = this.toolCalls.get(delta.index) ?? { id: '', name: '', arguments: '' };
    call.id ||= delta.id ?? '';
    // The name arrives whole in one delta; some compatible servers repeat it in every delta.
    call.name ||= delta.function?.name ?? '';
    call.arguments += delta.function?.arguments ?? '';
    this.toolCalls.set(delta.index, call);
  }

  result(): {
    text: string;
    toolCalls: NativeToolCall[];
    finishReason: string | null;
    usage: TokenUsage;
    model: string;
  } {
    const toolCalls = [...this.toolCalls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, call]) => ({
        id: call.id || `call_${index}`,
        name: call.name,
        arguments: parseToolArguments(call.name, call.arguments),
      }));
    return {
      text: this.text,
      toolCalls,
      finishReason: this.finishReason,
      usage: this.usage,
      model: this.model,
    };
  }
}
