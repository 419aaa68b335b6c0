import type { RunJournal } from '../ports';
import type { RunState } from '../run-state';
import type { ToolCall, ToolOutcome } from '../tools/tool-call';
import type { CompletionResult } from '../model/model-client';
import { JournalCursor, type JournalEntry } from './journal-entry';

/** Journals kept in this process's memory: for tests and embedded runtimes. */
export class InMemoryRunJournal implements RunJournal {
  private readonly journals = new Map<string, { cursor: JournalCursor; entries: JournalEntry[] }>();

  modelStepCompleted(run: RunState, step: { step: number; result: CompletionResult }): void {
    const journal = this.journalOf(run.runId);
    journal.entries.push(journal.cursor.modelStep(step.step, step.result));
  }

  toolCallCompleted(run: RunState, _call: ToolCall, outcome: ToolOutcome): void {
    const journal = this.journalOf(run.runId);
    journal.entries.push(journal.cursor.toolCall(run.step, outcome));
  }

  toolCallStarted(
    run: RunState,
    started: { step: number; index: number; name: string; args: Record<string, unknown> },
  ): void {
    const journal = this.journalOf(run.runId);
    journal.entries.push(journal.cursor.toolStarted(started.step, started));
  }

  userMessageReceived(run: RunState, message: { step: number; text: string }): void {
    const journal = this.journalOf(run.runId);
    journal.entries.push(journal.cursor.userMessage(message.step, message.text));
  }

  planChanged(): void {
    // the plan is part of the run's state, not of its journal
  }

  runEnded(): void {
    // the journal is complete as it stands
  }

  /** A copy of the run's entries, in order. */
  load(runId: string): JournalEntry[] {
    return [...(this.journals.get(runId)?.entries ?? [])];
  }

  private journalOf(runId: string): { cursor: JournalCursor; entries: JournalEntry[] } {
    let journal = this.journals.get(runId);
    if (!journal) this.journals.set(runId, (journal = { cursor: new JournalCursor(), entries: [] }));
    return journal;
  }
}
