import { Inject, Injectable } from '@nestjs/common';
import { successObservation } from '@app/agent-core';
import {
  type AgentRunRequest,
  CLIENT_CALL_ID_PATTERN,
  type ClientToolResult,
  ConflictError,
  type FunctionResult,
  InvalidParamsError,
  NotFoundError,
  type TraceStep,
} from '@app/contracts';
import type { AgentProfile } from '../agents/agent-profile';
import { AgentProfilesService } from '../agents/agent-profiles.service';
import { requireOwner } from '../common/ownership';
import { requireReadable } from '../store/run-formats';
import { RunRepository } from '../store/run.repository';
import { RunMetrics } from '../events/run-metrics';

/** The turn that carries a paused run's tool results on. */
export interface ResumedTurn {
  sessionId: string;
  agent: string;
  /** Every result of the paused reply, in call order, as the protocol returns results. */
  message: string;
  /** Marks the paused run answered: once, whoever asks first. */
  claim(): Promise<void>;
}

/**
 * Reads `tool_results`: finds the run they answer (named in the call ids), checks that every
 * client call of its last reply is answered and nothing else is, and renders the whole reply's
 * results (the platform's, kept from the paused run, and the caller's) for the next turn.
 */
@Injectable()
export class ClientToolResultsService {
  constructor(
    @Inject(RunRepository) private readonly runs: RunRepository,
    @Inject(AgentProfilesService) private readonly profiles: AgentProfilesService,
    @Inject(RunMetrics) private readonly metrics: RunMetrics,
  ) {}

  async resume(request: AgentRunRequest, results: ClientToolResult[]): Promise<ResumedTurn> {
    const runIds = new Set(results.map((result) => runIdOf(result.tool_call_id)));
    if (runIds.size > 1) throw invalid('tool_results', 'the results must answer the calls of one reply');
    const [runId] = runIds;
    const firstId = results[0].tool_call_id;
    const record = await this.runs.find(runId);
    if (!record?.session_id) throw new NotFoundError('tool call', firstId);
    requireOwner('tool call', firstId, record.owner, request.principal);
    requireReadable(runId, record);
    if (request.session_id && request.session_id !== record.session_id)
      throw invalid('session_id', `tool call '${firstId}' belongs to another session`);
    if (record.status !== 'awaiting_tool_results')
      throw new ConflictError(`run '${runId}' no longer waits for tool results (${record.status})`);
    const batch = lastReply(record.trace);
    const answers = new Map(results.map((result) => [result.tool_call_id, result.content]));
    checkAnswers(batch, answers);
    const profile = await this.profiles.get(record.agent);
    const message = batch
      .map((step) =>
        step.kind === 'client_tool_call'
          ? this.observation(step, answers.get(step.call_id ?? '') ?? '', profile)
          : (step.observation ?? ''),
      )
      .join('\n');
    return {
      sessionId: record.session_id,
      agent: record.agent,
      message,
      claim: async () => {
        if (!(await this.runs.transition(runId, 'awaiting_tool_results', 'completed')))
          throw new ConflictError(`run '${runId}' no longer waits for tool results (answered meanwhile)`);
      },
    };
  }

  /** JSON is data (TOON-encoded for the model when cheaper); any other text is a message. */
  private observation(step: TraceStep, content: string, profile: AgentProfile): string {
    return successObservation(step.action?.tool ?? 'tool', resultOf(content), {
      maxLen: profile.observation_max_len,
      model: profile.model,
      onTokensSaved: (tokens) => this.metrics.tokensSaved(tokens),
    });
  }
}

function runIdOf(callId: string): string {
  return (CLIENT_CALL_ID_PATTERN.exec(callId) as RegExpExecArray)[1];
}

/** The calls of the paused run's last model reply, in call order. */
function lastReply(trace: TraceStep[]): TraceStep[] {
  const last = trace.reduce((max, step) => Math.max(max, step.step), 0);
  return trace.filter(
    (step) => step.step === last && (step.kind === 'action' || step.kind === 'client_tool_call'),
  );
}

function checkAnswers(batch: TraceStep[], answers: Map<string, string>): void {
  const asked = new Map(
    batch.filter((step) => step.kind === 'client_tool_call').map((step) => [step.call_id ?? '', step]),
  );
  const errors = [
    ...[...answers.keys()]
      .filter((id) => !asked.has(id))
      .map((id) => ({ field: 'tool_results', message: `'${id}' is not a call this reply waits for` })),
    ...[...asked.entries()]
      .filter(([id]) => !answers.has(id))
      .map(([id, step]) => ({
        field: 'tool_results',
        message: `no result for call '${id}' (${step.action?.tool ?? 'unknown'})`,
      })),
  ];
  if (errors.length > 0) throw new InvalidParamsError(errors, 'invalid tool results');
}

function resultOf(content: string): FunctionResult {
  try {
    const data: unknown = JSON.parse(content);
    if (typeof data === 'object' && data !== null) return { data };
  } catch {
    // not JSON: the text itself is the result
  }
  return { message: content };
}

function invalid(field: string, message: string): InvalidParamsError {
  return new InvalidParamsError([{ field, message }], 'invalid tool results');
}
