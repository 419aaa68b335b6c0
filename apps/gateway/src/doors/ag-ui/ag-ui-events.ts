import { EventType } from '@ag-ui/core';
import type { AgentEvent, AgentEventData, AgentRunReply, PendingApproval } from '@app/contracts';
import { toHttpError } from '../../common/http-error';
import type { RunStreamFormat } from '../../common/event-stream';
import { heldCallId } from '../held-call-id';

/** The AG-UI protocol version this door speaks. */
export const AG_UI_VERSION = '1.0';

/**
 * A run as AG-UI events (`data: <event JSON>` per server-sent event): RUN_STARTED and a
 * STATE_SNAPSHOT (the platform's run and session) first; a step's text before its calls and the
 * answer each as its own text message (never run together); the platform's function calls as
 * TOOL_CALL_START/ARGS/END with TOOL_CALL_RESULT; the plan in STATE_SNAPSHOT; calls of the front
 * end's tools as TOOL_CALL_* at the end (the front end runs them and sends their results in the
 * next run); RUN_FINISHED with an interrupt for each call held for approval, or RUN_ERROR.
 */
export class AgUiEvents implements RunStreamFormat {
  private started = false;
  private open?: { step: number; id: string };
  private readonly said: string[] = [];
  private readonly held: PendingApproval[] = [];
  private state: Record<string, unknown> = {};

  constructor(private readonly input: { threadId: string; runId: string }) {}

  headers(first: AgentEvent): Record<string, string> {
    return { 'x-run-id': first.run_id };
  }

  event(event: AgentEvent): string {
    switch (event.type) {
      case 'run_start':
      case 'run_resumed':
        return this.start(event.run_id, (event.data as { session_id?: string }).session_id);
      case 'thought': {
        const { step, text } = event.data as AgentEventData['thought'];
        return this.closeText() + this.text(`${event.run_id}_thought_${step}`, text);
      }
      case 'delta':
        return this.delta(event.run_id, event.data as AgentEventData['delta']);
      case 'tool_call':
        return this.closeText() + this.toolCall(event.run_id, event.data as AgentEventData['tool_call']);
      case 'tool_result': {
        const result = event.data as AgentEventData['tool_result'];
        const content = JSON.stringify(result.status === 'success' ? (result.result ?? null) : result.error);
        return this.send(EventType.TOOL_CALL_RESULT, {
          messageId: `${event.run_id}_result_${result.step}_${result.index}`,
          toolCallId: `${event.run_id}_${result.step}_${result.index}`,
          content,
          role: 'tool',
        });
      }
      case 'plan':
        return this.snapshot({ plan: event.data });
      case 'approval_required':
        this.held.push(event.data as AgentEventData['approval_required']);
        return '';
      default:
        return '';
    }
  }

  end(reply: AgentRunReply): string {
    let out = this.start(reply.run_id, reply.session_id) + this.closeText();
    if (reply.reply && !this.said.includes(reply.reply))
      out += this.text(`${reply.run_id}_reply`, reply.reply);
    for (const call of reply.client_tool_calls ?? [])
      out += this.toolCallEvents(call.id, call.name, call.arguments);
    if (reply.finish_reason === 'error' || reply.finish_reason === 'parse_error')
      return (
        out +
        this.send(EventType.RUN_ERROR, {
          message: reply.error?.message ?? reply.reply,
          code: reply.finish_reason,
        })
      );
    const held = reply.approvals?.length ? reply.approvals : this.held;
    const outcome =
      reply.finish_reason === 'awaiting_approval' && held.length > 0
        ? { type: 'interrupt', interrupts: held.map(interruptOf) }
        : reply.finish_reason === 'cancelled'
          ? { type: 'cancelled' }
          : { type: 'success' };
    return (
      out +
      this.send(EventType.RUN_FINISHED, {
        threadId: this.input.threadId,
        runId: this.input.runId,
        result: {
          reply: reply.reply,
          finish_reason: reply.finish_reason,
          run_id: reply.run_id,
          session_id: reply.session_id,
        },
        outcome,
        usage: [
          {
            inputTokens: reply.usage.prompt_tokens,
            outputTokens: reply.usage.completion_tokens,
            totalTokens: reply.usage.prompt_tokens + reply.usage.completion_tokens,
          },
        ],
      })
    );
  }

  error(err: unknown): string {
    const { body } = toHttpError(err);
    return (
      this.start('', undefined) + this.send(EventType.RUN_ERROR, { message: body.message, code: body.code })
    );
  }

  private start(runId: string, sessionId: string | undefined): string {
    if (this.started) return '';
    this.started = true;
    const ids = { run_id: runId, session_id: sessionId ?? '' };
    return (
      this.send(EventType.RUN_STARTED, {
        threadId: this.input.threadId,
        runId: this.input.runId,
        metadata: { agentchassis: ids },
      }) + this.snapshot(ids)
    );
  }

  private snapshot(fields: Record<string, unknown>): string {
    this.state = { ...this.state, ...fields };
    return this.send(EventType.STATE_SNAPSHOT, { snapshot: this.state });
  }

  /** One whole text message. */
  private text(id: string, text: string): string {
    this.said.push(text);
    return (
      this.send(EventType.TEXT_MESSAGE_START, { messageId: id, role: 'assistant' }) +
      this.send(EventType.TEXT_MESSAGE_CONTENT, { messageId: id, delta: text }) +
      this.send(EventType.TEXT_MESSAGE_END, { messageId: id })
    );
  }

  /** A piece of a step's answer: its message opened at the first piece, closed when another begins. */
  private delta(runId: string, { step, text }: AgentEventData['delta']): string {
    let out = '';
    if (this.open?.step !== step) {
      out += this.closeText();
      this.open = { step, id: `${runId}_answer_${step}` };
      this.said.push('');
      out += this.send(EventType.TEXT_MESSAGE_START, { messageId: this.open.id, role: 'assistant' });
    }
    this.said[this.said.length - 1] += text;
    return out + this.send(EventType.TEXT_MESSAGE_CONTENT, { messageId: this.open.id, delta: text });
  }

  private closeText(): string {
    if (!this.open) return '';
    const { id } = this.open;
    this.open = undefined;
    return this.send(EventType.TEXT_MESSAGE_END, { messageId: id });
  }

  private toolCall(runId: string, call: AgentEventData['tool_call']): string {
    return this.toolCallEvents(`${runId}_${call.step}_${call.index}`, call.name, call.args);
  }

  private toolCallEvents(id: string, name: string, args: Record<string, unknown>): string {
    return (
      this.send(EventType.TOOL_CALL_START, { toolCallId: id, toolCallName: name }) +
      this.send(EventType.TOOL_CALL_ARGS, { toolCallId: id, delta: JSON.stringify(args) }) +
      this.send(EventType.TOOL_CALL_END, { toolCallId: id })
    );
  }

  private send(type: EventType, fields: Record<string, unknown>): string {
    return `data: ${JSON.stringify({ type, timestamp: Date.now(), ...fields })}\n\n`;
  }
}

/** A call held for approval as an AG-UI interrupt, answered by a resume entry `{approve, reason}`. */
function interruptOf(held: PendingApproval) {
  return {
    id: heldCallId(held.call_id, held.hash),
    reason: 'tool_approval',
    message: `Run ${held.function} with ${JSON.stringify(held.arguments)}?`,
    responseSchema: {
      type: 'object',
      properties: { approve: { type: 'boolean' }, reason: { type: 'string' } },
      required: ['approve'],
    },
    ...(held.expires_at ? { expiresAt: held.expires_at } : {}),
    metadata: { function: held.function, arguments: held.arguments, hash: held.hash },
  };
}
