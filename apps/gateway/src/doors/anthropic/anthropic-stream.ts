import type { AgentEvent, AgentEventData, AgentRunReply } from '@app/contracts';
import type { RunStreamFormat } from '../../common/event-stream';
import { toHttpError } from '../../common/http-error';
import { anthropicError } from './anthropic-error-shape';
import { contentOf, messageId, runInfoOf, stopReasonOf, usageOf } from './anthropic-response';

/**
 * A run as Anthropic's message stream: `message_start` when it starts; when it has answered, each
 * content block (`content_block_start`, a `text_delta` or `input_json_delta`, `content_block_stop`),
 * then `message_delta` (stop reason, usage) and `message_stop`. A step's text is known to be the
 * answer only when the step ends, so blocks are sent as the run answers.
 */
export class AnthropicEvents implements RunStreamFormat {
  private started = false;

  constructor(
    private readonly runId: string,
    private readonly model: string,
  ) {}

  headers(first: AgentEvent): Record<string, string> {
    const start = first.type === 'run_start' ? (first.data as AgentEventData['run_start']) : undefined;
    return { 'x-run-id': this.runId, ...(start ? { 'x-session-id': start.session_id } : {}) };
  }

  event(event: AgentEvent): string {
    return event.type === 'run_start' || event.type === 'run_resumed' ? this.start() : '';
  }

  end(reply: AgentRunReply): string {
    const blocks = contentOf(reply).map((block, index) => {
      const opened = block.type === 'text' ? { type: 'text', text: '' } : { ...block, input: {} };
      const delta =
        block.type === 'text'
          ? { type: 'text_delta', text: block.text }
          : { type: 'input_json_delta', partial_json: JSON.stringify(block.input) };
      return (
        this.send('content_block_start', { index, content_block: opened }) +
        this.send('content_block_delta', { index, delta }) +
        this.send('content_block_stop', { index })
      );
    });
    const delta = { stop_reason: stopReasonOf(reply), stop_sequence: null };
    return (
      this.start() +
      blocks.join('') +
      this.send('message_delta', { delta, usage: usageOf(reply), agentchassis: runInfoOf(reply) }) +
      this.send('message_stop', {})
    );
  }

  error(err: unknown): string {
    const { status, body } = toHttpError(err);
    return this.send('error', anthropicError(status, body.message));
  }

  private start(): string {
    if (this.started) return '';
    this.started = true;
    const message = {
      id: messageId(this.runId),
      type: 'message',
      role: 'assistant',
      model: this.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: {
        input_tokens: 0,
        output_tokens: 0,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
      },
    };
    return this.send('message_start', { message });
  }

  private send(type: string, fields: Record<string, unknown>): string {
    return `event: ${type}\ndata: ${JSON.stringify({ type, ...fields })}\n\n`;
  }
}
