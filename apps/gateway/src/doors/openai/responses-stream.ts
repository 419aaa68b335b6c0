import type { AgentEvent, AgentEventData, AgentRunReply } from '@app/contracts';
import type { RunStreamFormat } from '../../common/event-stream';
import { openAiError } from './openai-error-shape';
import { pendingResponse, type ResponseEcho, toResponse } from './responses-resource';

/**
 * A run as the Responses API's server-sent events: `response.created` and `response.in_progress`
 * when it starts; each output item, when the run has answered, as `response.output_item.added`,
 * its content (`response.output_text.delta`/`.done`, `response.function_call_arguments.delta`/`.done`)
 * and `response.output_item.done`; then `response.completed` (or `.incomplete`, `.failed`) with the
 * whole response. A step's text is known to be the answer, not the thought before a call, only
 * when the step ends, so items are sent as the run answers (as the Chat Completions door does).
 */
export class ResponsesEvents implements RunStreamFormat {
  private sequence = 0;
  private started = false;

  constructor(
    private readonly runId: string,
    private readonly echo: ResponseEcho,
  ) {}

  headers(first: AgentEvent): Record<string, string> {
    const start = first.type === 'run_start' ? (first.data as AgentEventData['run_start']) : undefined;
    return { 'x-run-id': this.runId, ...(start ? { 'x-session-id': start.session_id } : {}) };
  }

  event(event: AgentEvent): string {
    if (event.type !== 'run_start' && event.type !== 'run_resumed') return '';
    return this.start((event.data as { session_id?: string }).session_id ?? '');
  }

  end(reply: AgentRunReply): string {
    const opening = this.start(reply.session_id);
    const response = toResponse(reply, this.echo);
    const parts = response.output.map((item, index) => this.item(item, index));
    const last =
      response.status === 'completed'
        ? 'response.completed'
        : response.status === 'incomplete'
          ? 'response.incomplete'
          : 'response.failed';
    return opening + parts.join('') + this.send(last, { response });
  }

  /** `response.created` and `response.in_progress`, once. */
  private start(sessionId: string): string {
    if (this.started) return '';
    this.started = true;
    const response = pendingResponse(this.runId, this.echo, sessionId);
    return this.send('response.created', { response }) + this.send('response.in_progress', { response });
  }

  error(err: unknown): string {
    const { error } = openAiError(err).body;
    return this.send('error', { code: error.code, message: error.message, param: error.param });
  }

  /** One output item: added (empty), its content, done. */
  private item(item: Record<string, unknown>, outputIndex: number): string {
    const id = item.id as string;
    const at = { item_id: id, output_index: outputIndex };
    if (item.type === 'message') {
      const text = (item.content as { text: string }[])[0].text;
      const part = { type: 'output_text', text: '', annotations: [], logprobs: [] };
      return [
        this.send('response.output_item.added', {
          output_index: outputIndex,
          item: { ...item, status: 'in_progress', content: [] },
        }),
        this.send('response.content_part.added', { ...at, content_index: 0, part }),
        this.send('response.output_text.delta', { ...at, content_index: 0, delta: text, logprobs: [] }),
        this.send('response.output_text.done', { ...at, content_index: 0, text, logprobs: [] }),
        this.send('response.content_part.done', { ...at, content_index: 0, part: { ...part, text } }),
        this.send('response.output_item.done', { output_index: outputIndex, item }),
      ].join('');
    }
    if (item.type === 'function_call') {
      const args = item.arguments as string;
      return [
        this.send('response.output_item.added', {
          output_index: outputIndex,
          item: { ...item, arguments: '', status: 'in_progress' },
        }),
        this.send('response.function_call_arguments.delta', { ...at, delta: args }),
        this.send('response.function_call_arguments.done', { ...at, arguments: args }),
        this.send('response.output_item.done', { output_index: outputIndex, item }),
      ].join('');
    }
    return (
      this.send('response.output_item.added', { output_index: outputIndex, item }) +
      this.send('response.output_item.done', { output_index: outputIndex, item })
    );
  }

  private send(type: string, fields: Record<string, unknown>): string {
    const data = { type, sequence_number: this.sequence++, ...fields };
    return `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
  }
}
