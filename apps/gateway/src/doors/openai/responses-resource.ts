import {
  type AgentRunReply,
  type FinishReason,
  NotFoundError,
  type ResponseObject,
  type ResponseUsage,
} from '@app/contracts';
import { heldCallId } from '../held-call-id';

/** What a response was asked with, for the fields that echo the request. */
export interface ResponseEcho {
  model: string;
  instructions?: string;
  previous_response_id?: string;
  tools?: Record<string, unknown>[];
  tool_choice?: 'auto' | 'none';
  metadata?: Record<string, string>;
  /** Unix seconds. */
  created_at: number;
}

/** A response names its run: `resp_<hex>` for `run_<hex>`. */
export function responseId(runId: string): string {
  return `resp_${runId.replace(/^run_/, '')}`;
}

export function runIdOf(responseId: string): string {
  const match = /^resp_([A-Za-z0-9]{1,64})$/.exec(responseId);
  if (!match) throw new NotFoundError('response', responseId.slice(0, 64));
  return `run_${match[1]}`;
}

type Status = ResponseObject['status'];

const STATUS: Record<FinishReason, Status> = {
  final: 'completed',
  client_tool_calls: 'completed',
  awaiting_approval: 'completed',
  rejected: 'completed',
  max_steps: 'incomplete',
  max_tool_calls: 'incomplete',
  budget: 'incomplete',
  timeout: 'incomplete',
  parse_error: 'failed',
  error: 'failed',
  cancelled: 'cancelled',
};

/**
 * The items a run's reply shows the caller, in order: the text the model wrote before it called
 * the caller's functions (its own message item, never run together with a later answer), those
 * calls, calls held for approval, or the answer.
 */
export function outputOf(reply: AgentRunReply): Record<string, unknown>[] {
  const hex = reply.run_id.replace(/^run_/, '');
  const items: Record<string, unknown>[] = [];
  if (reply.reply) items.push(messageItem(`msg_${hex}_${items.length}`, reply.reply));
  for (const call of reply.client_tool_calls ?? [])
    items.push({
      type: 'function_call',
      id: `fc_${call.id}`,
      call_id: call.id,
      name: call.name,
      arguments: JSON.stringify(call.arguments),
      status: 'completed',
    });
  for (const held of reply.approvals ?? [])
    items.push({
      type: 'mcp_approval_request',
      id: heldCallId(held.call_id, held.hash),
      server_label: 'agentchassis',
      name: held.function,
      arguments: JSON.stringify(held.arguments),
    });
  return items;
}

export function messageItem(id: string, text: string, status = 'completed'): Record<string, unknown> {
  return {
    type: 'message',
    id,
    status,
    role: 'assistant',
    content: [{ type: 'output_text', text, annotations: [], logprobs: [] }],
  };
}

export function usageOf(reply: AgentRunReply): ResponseUsage {
  const { prompt_tokens, completion_tokens } = reply.usage;
  const cached = reply.usage.cached_prompt_tokens ?? 0;
  return {
    input_tokens: prompt_tokens,
    input_tokens_details: { cached_tokens: cached },
    output_tokens: completion_tokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: prompt_tokens + completion_tokens,
  };
}

/** A response in progress: what `response.created` shows before the run has answered. */
export function pendingResponse(runId: string, echo: ResponseEcho, sessionId = ''): ResponseObject {
  return resource(runId, echo, {
    status: 'in_progress',
    output: [],
    usage: null,
    completed_at: null,
    info: { run_id: runId, session_id: sessionId, finish_reason: 'in_progress' },
  });
}

/** The response of a run's reply. */
export function toResponse(reply: AgentRunReply, echo: ResponseEcho): ResponseObject {
  const status = STATUS[reply.finish_reason];
  return resource(reply.run_id, echo, {
    status,
    output: outputOf(reply),
    usage: usageOf(reply),
    completed_at: status === 'completed' ? Math.floor(Date.now() / 1000) : null,
    ...(status === 'incomplete' ? { incomplete_details: { reason: reply.finish_reason } } : {}),
    ...(status === 'failed'
      ? {
          error: {
            code: reply.error?.code ?? reply.finish_reason,
            message: reply.error?.message ?? reply.reply,
          },
        }
      : {}),
    info: {
      run_id: reply.run_id,
      session_id: reply.session_id,
      finish_reason: reply.finish_reason,
      ...(reply.usage.cost_usd !== undefined ? { cost_usd: reply.usage.cost_usd } : {}),
    },
  });
}

interface Outcome {
  status: Status;
  output: Record<string, unknown>[];
  usage: ResponseUsage | null;
  completed_at: number | null;
  incomplete_details?: { reason: string };
  error?: { code: string; message: string };
  info: ResponseObject['agentchassis'];
}

function resource(runId: string, echo: ResponseEcho, outcome: Outcome): ResponseObject {
  return {
    id: responseId(runId),
    object: 'response',
    created_at: echo.created_at,
    completed_at: outcome.completed_at,
    status: outcome.status,
    incomplete_details: outcome.incomplete_details ?? null,
    model: echo.model,
    previous_response_id: echo.previous_response_id ?? null,
    instructions: echo.instructions ?? null,
    output: outcome.output,
    error: outcome.error ?? null,
    tools: echo.tools ?? [],
    tool_choice: echo.tool_choice ?? 'auto',
    truncation: 'disabled',
    parallel_tool_calls: true,
    text: { format: { type: 'text' } },
    top_p: 1,
    presence_penalty: 0,
    frequency_penalty: 0,
    top_logprobs: 0,
    temperature: 1,
    reasoning: null,
    usage: outcome.usage,
    max_output_tokens: null,
    max_tool_calls: null,
    store: true,
    background: false,
    service_tier: 'default',
    metadata: echo.metadata ?? {},
    safety_identifier: null,
    prompt_cache_key: null,
    agentchassis: outcome.info,
  };
}
