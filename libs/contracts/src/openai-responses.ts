import type { FinishReason, FunctionCallSummary } from './agent';

/**
 * Response shapes of the OpenAI-compatible API (`/v1`), as classes so the API can be documented.
 * `agentchassis` is the one extension field: standard clients ignore it.
 */
export type OpenAiFinishReason = 'stop' | 'length' | 'tool_calls';

export class OpenAiUsage {
  prompt_tokens!: number;
  completion_tokens!: number;
  total_tokens!: number;
}

export class OpenAiToolCallOut {
  id!: string;
  type!: 'function';
  function!: { name: string; arguments: string };
}

export class ChatCompletionMessageOut {
  role!: 'assistant';
  content!: string | null;
  refusal!: null;
  tool_calls?: OpenAiToolCallOut[];
}

export class ChatCompletionChoice {
  index!: number;
  message!: ChatCompletionMessageOut;
  finish_reason!: OpenAiFinishReason;
  logprobs!: null;
}

/** What the platform adds to a completion: the run, its session, its own finish reason, the functions it ran. */
export class AgentChassisRunInfo {
  run_id!: string;
  session_id!: string;
  finish_reason!: FinishReason;
  function_calls!: FunctionCallSummary[];
}

export class ChatCompletionResponse {
  id!: string;
  object!: 'chat.completion';
  created!: number;
  model!: string;
  choices!: ChatCompletionChoice[];
  usage!: OpenAiUsage;
  agentchassis!: AgentChassisRunInfo;
}

export class ChatCompletionChunkDelta {
  role?: 'assistant';
  content?: string;
  tool_calls?: (OpenAiToolCallOut & { index: number })[];
}

export class ChatCompletionChunkChoice {
  index!: number;
  delta!: ChatCompletionChunkDelta;
  finish_reason!: OpenAiFinishReason | null;
  logprobs!: null;
}

/**
 * What the agent did on the platform's side, on a chunk whose `choices` is empty: `delta` (a
 * step's text as it is written), `thought` (a step that calls functions: its text was a thought),
 * `tool_call`, `tool_result`, `plan`, `plan_step`, and `run_end` (on the chunk with the finish reason).
 */
export class AgentChassisStreamEvent {
  event!: 'delta' | 'thought' | 'tool_call' | 'tool_result' | 'plan' | 'plan_step' | 'run_end';
  [field: string]: unknown;
}

export class ChatCompletionChunk {
  id!: string;
  object!: 'chat.completion.chunk';
  created!: number;
  model!: string;
  choices!: ChatCompletionChunkChoice[];
  usage?: OpenAiUsage;
  agentchassis?: AgentChassisStreamEvent;
}

export class OpenAiModel {
  id!: string;
  object!: 'model';
  created!: number;
  owned_by!: string;
}

export class OpenAiModelList {
  object!: 'list';
  data!: OpenAiModel[];
}

export class OpenAiErrorDetail {
  message!: string;
  type!: string;
  param!: string | null;
  code!: string | null;
}

export class OpenAiErrorResponse {
  error!: OpenAiErrorDetail;
}
