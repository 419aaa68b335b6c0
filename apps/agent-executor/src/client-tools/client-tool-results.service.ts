import { Inject, Injectable } from '@nestjs/common';
import { ClientResults } from '@app/agent-core';
import {
  type AgentRunRequest,
  CLIENT_CALL_ID_PATTERN,
  type ClientToolResult,
  ConflictError,
  InvalidParamsError,
  NotFoundError,
  type TraceStep,
} from '@app/contracts';
import { requireOwner } from '../common/ownership';
import { requireReadable } from '../common/run-formats';
import { type RunRecord, RunRepository } from '../store/run.repository';

/** A run paused for client tool results, and the caller's answers to carry it on with. */
export interface AnsweredRun {
  record: RunRecord;
  results: ClientResults;
}

/**
 * Reads `tool_results`: finds the run they answer (named in the call ids), checks that the caller
 * may, that the run still waits, and that every client call of its last reply is answered and
 * nothing else is. The run then goes on with them (the same run: one trace, one cost).
 */
@Injectable()
export class ClientToolResultsService {
  constructor(@Inject(RunRepository) private readonly runs: RunRepository) {}

  async answered(request: AgentRunRequest, results: ClientToolResult[]): Promise<AnsweredRun> {
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
    checkAnswers(lastReply(record.trace), new Set(results.map((result) => result.tool_call_id)));
    return { record, results: new ClientResults(results, request.message) };
  }
}

/** The run a client call's id names. */
export function runIdOf(callId: string): string {
  return (CLIENT_CALL_ID_PATTERN.exec(callId) as RegExpExecArray)[1];
}

/** The calls of the paused run's last model reply, in call order. */
function lastReply(trace: TraceStep[]): TraceStep[] {
  const last = trace.reduce((max, step) => Math.max(max, step.step), 0);
  return trace.filter(
    (step) => step.step === last && (step.kind === 'action' || step.kind === 'client_tool_call'),
  );
}

function checkAnswers(batch: TraceStep[], answers: Set<string>): void {
  const asked = new Map(
    batch.filter((step) => step.kind === 'client_tool_call').map((step) => [step.call_id ?? '', step]),
  );
  const errors = [
    ...[...answers]
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

function invalid(field: string, message: string): InvalidParamsError {
  return new InvalidParamsError([{ field, message }], 'invalid tool results');
}
