import type { TraceStep } from '@app/contracts';
import type { MemorySegment } from './memory-store';
import { isMemoryFunction } from './memory-functions';

/** Longest text one segment keeps: past it, a tool's result is a document, not a memory. */
export const MAX_SEGMENT_CHARS = 8_000;

/** A finished run as the archive reads it: who ran it, what was asked, what happened, what was answered. */
export interface FinishedRun {
  runId: string;
  principal: string;
  sessionId: string;
  agent: string;
  input: string;
  trace: readonly TraceStep[];
  reply: string;
  at: Date;
}

type Piece = Pick<MemorySegment, 'type' | 'content'>;

/**
 * A run's segments, each anchored at (iteration, segment): iteration 0 is the user's message, then
 * each model step of the trace in order (its thought, then each call and its result), the response
 * last, in the final step. Calls to the memory functions themselves are left out: they would only
 * archive copies of what is archived already.
 */
export function segmentRun(run: FinishedRun): MemorySegment[] {
  const byIteration = new Map<number, Piece[]>([[0, [{ type: 'user_message', content: run.input }]]]);
  const add = (iteration: number, piece: Piece) => {
    if (!piece.content.trim()) return;
    const pieces = byIteration.get(iteration) ?? [];
    pieces.push(piece);
    byIteration.set(iteration, pieces);
  };
  let last = 0;
  for (const entry of run.trace) {
    last = Math.max(last, entry.step);
    if (entry.action && isMemoryFunction(entry.action.tool)) continue;
    if (entry.thought) add(entry.step, { type: 'reasoning', content: entry.thought });
    if (!entry.action) continue;
    add(entry.step, { type: 'tool_call', content: callText(entry.action) });
    const result = [entry.error, entry.observation].filter(Boolean).join('\n');
    if (result) add(entry.step, { type: 'tool_result', content: result });
  }
  add(Math.max(last, 1), { type: 'response', content: run.reply });
  const segments: MemorySegment[] = [];
  for (const [iterationIndex, pieces] of [...byIteration].sort(([a], [b]) => a - b)) {
    pieces.forEach((piece, segmentIndex) =>
      segments.push({
        principal: run.principal,
        sessionId: run.sessionId,
        agent: run.agent,
        runId: run.runId,
        iterationIndex,
        segmentIndex,
        type: piece.type,
        content: piece.content.slice(0, MAX_SEGMENT_CHARS),
        at: run.at,
      }),
    );
  }
  return segments;
}

function callText(action: { tool: string; args: Record<string, unknown> }): string {
  return `${action.tool} ${JSON.stringify(action.args)}`;
}
