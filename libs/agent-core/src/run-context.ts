import type { AgentDefinition } from './agent-definition';
import type { ModelClient } from './model/model-client';
import type { Functions, Hooks, RunJournal, RunMetrics, SpendLedger } from './ports';
import type { PromptSet } from './prompts/prompt-set';
import type { RunState } from './run-state';
import type { ClientResults } from './tools/client-results';
import type { ClientToolSet } from './tools/client-tool-set';
import type { JournalReplay } from './journal/journal-replay';
import type { RunInbox } from './inbox/run-inbox';
import type { ApprovalDecisions } from './tools/approval-gate';

/** What one run works with: its state, the ports it calls, and its prompts. */
export interface RunContext<D extends AgentDefinition = AgentDefinition> {
  run: RunState<D>;
  model: ModelClient;
  functions: Functions;
  prompts: PromptSet;
  hooks?: Hooks;
  journal?: RunJournal;
  metrics?: RunMetrics;
  /** A budget outside the run its model calls draw on (its API key's day): each call reserves before it is sent. */
  spend?: SpendLedger;
  /** Tools the caller runs itself; a call to one holds the run in `awaiting_tool_results`. */
  clientTools?: ClientToolSet;
  /** The caller's results for the client calls the run paused on: the run goes on with them. */
  clientResults?: ClientResults;
  /** A run taken up again: its journaled steps, answered instead of being sent again. */
  replay?: JournalReplay;
  /** Messages the caller adds while the run runs, read before each model step. */
  inbox?: RunInbox;
  /** Decisions on calls held for approval: a held call decided here runs (or not) as decided. */
  approvals?: ApprovalDecisions;
}
