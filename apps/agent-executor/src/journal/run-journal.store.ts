import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import {
  type CompletionResult,
  JournalCursor,
  type JournalEntry,
  JournalFormatError,
  readJournal,
  type RunOutcome,
  type RunState,
  type RunJournal,
  type ToolCall,
  type ToolOutcome,
} from '@app/agent-core';
import { initialiseCounter, Logger, Metrics } from '@app/observability';
import { SERVICE_INFO, type ServiceInfo } from '@app/runtime';
import { newerFormat } from '../common/run-formats';
import { RunJournalRepository } from '../store/run-journal.repository';
import { leaseOwnerOf } from '../common/lease-owner';
import { RunRepository } from '../store/run.repository';

type Build = (cursor: JournalCursor) => JournalEntry;

/**
 * The run ends its turn (its end is one transaction with the turn's messages), rather than pausing
 * for approval or for the caller's tool results: a paused run goes on, its turn is not over.
 */
export function endsTurn(outcome: RunOutcome): boolean {
  return outcome.finishReason !== 'awaiting_approval' && outcome.finishReason !== 'client_tool_calls';
}

/** One turn's journal: the store's, with the entries its end keeps for the end's own transaction. */
export interface TurnJournal extends Required<RunJournal> {
  /** The entries `runEnded` kept (handed out once). */
  tail(): JournalEntry[];
}

interface Pending {
  build: Build;
  /** A run's first model step: nothing was journaled before it. */
  first: boolean;
}

/** A run's journal while it runs: the entries waiting for their write, in order. */
interface OpenJournal {
  cursor?: JournalCursor;
  pending: Pending[];
  /** The write loop, while one runs. */
  draining?: Promise<void>;
  /** A write failed: nothing more of this run is written, so its journal stays a gap-free prefix. */
  broken: boolean;
  /** The run was handed over to another executor: nothing more of it is written here. */
  abandoned?: boolean;
}

/**
 * The run engine's journal in the executor: every completed model step and tool call becomes a
 * RunJournalEntry, in order, written behind the run (the step returns at once; entries that
 * complete at the same moment, or while a write is in flight, go in one write together).
 * `runEnded` waits for the last write, so a run's journal is complete before its ending is
 * recorded (or hands the last entries to the ending's own transaction).
 *
 * A failed write does not fail the run: the caller's answer matters more than the journal, which
 * only serves to take a run up again. It is logged and counted (`ac_run_journal_unwritten_total`),
 * and the run's later entries are dropped (and counted) too, so what is stored is always the run
 * as it stood at some completed step: a resume carries on from there instead of from a journal
 * with a hole in it.
 *
 * The plan is stored on the run's record, every time it changes, while this executor holds the
 * run's lease: a run taken over is the new holder's to write.
 */
@Injectable()
export class RunJournalStore implements RunJournal, OnModuleInit {
  private readonly open = new Map<string, OpenJournal>();
  private readonly leaseOwner: string;

  constructor(
    @Inject(RunRepository) private readonly runs: RunRepository,
    @Inject(RunJournalRepository) private readonly entries: RunJournalRepository,
    @Inject(Logger) private readonly logger: Logger,
    @Inject(SERVICE_INFO) info: ServiceInfo,
  ) {
    this.leaseOwner = leaseOwnerOf(info);
  }

  onModuleInit(): void {
    initialiseCounter(Metrics.runJournalUnwritten(), [{}]);
  }

  modelStepCompleted(run: RunState, { step, result }: { step: number; result: CompletionResult }): void {
    this.enqueue(run.runId, (cursor) => cursor.modelStep(step, result), step === 1);
  }

  toolCallCompleted(run: RunState, _call: ToolCall, outcome: ToolOutcome): void {
    const step = run.step;
    this.enqueue(run.runId, (cursor) => cursor.toolCall(step, outcome), false);
  }

  userMessageReceived(run: RunState, { step, text }: { step: number; text: string }): void {
    this.enqueue(run.runId, (cursor) => cursor.userMessage(step, text), false);
  }

  /** Waits until the start is written: the call is sent only once a takeover would know of it. */
  async toolCallStarted(
    run: RunState,
    started: { step: number; index: number; name: string; args: Record<string, unknown> },
  ): Promise<void> {
    this.enqueue(run.runId, (cursor) => cursor.toolStarted(started.step, started), false);
    await this.open.get(run.runId)?.draining;
  }

  async planChanged(run: RunState): Promise<void> {
    if (!run.plan || this.open.get(run.runId)?.abandoned) return;
    if (!(await this.runs.savePlan(run.runId, run.plan, this.leaseOwner)))
      this.logger.debug('the plan was not saved: the run is no longer ours', { run_id: run.runId });
  }

  /** Waits until the run's journal is written (or given up). */
  async runEnded(run: RunState): Promise<void> {
    await this.open.get(run.runId)?.draining;
    this.open.delete(run.runId);
  }

  /**
   * As `runEnded`, but the entries still waiting for their write are handed back, numbered, for
   * the transaction that records the run's end to take: one write fewer a turn, and an end
   * refused on the lease writes none of them either.
   */
  async runEndedWithTail(run: RunState): Promise<JournalEntry[]> {
    const journal = this.open.get(run.runId);
    const tail = journal?.pending.splice(0) ?? [];
    await this.runEnded(run);
    if (!journal || tail.length === 0) return [];
    return (await this.built(run.runId, journal, tail)) ?? [];
  }

  /**
   * The journal as one turn's run writes it: a turn that ends (rather than pausing for approval)
   * keeps its last entries for the transaction recording its end (`tail`).
   */
  forTurn(): TurnJournal {
    let kept: JournalEntry[] = [];
    return {
      modelStepCompleted: (run, step) => this.modelStepCompleted(run, step),
      toolCallCompleted: (run, call, outcome) => this.toolCallCompleted(run, call, outcome),
      toolCallStarted: (run, started) => this.toolCallStarted(run, started),
      userMessageReceived: (run, message) => this.userMessageReceived(run, message),
      planChanged: (run) => this.planChanged(run),
      runEnded: async (run, outcome) => {
        if (endsTurn(outcome)) kept = await this.runEndedWithTail(run);
        else await this.runEnded(run);
      },
      tail: () => kept.splice(0),
    };
  }

  /**
   * Writes nothing more of the run: it was handed over, and the executor carrying it on writes its
   * journal from here (an aborted call's error is not the run's outcome).
   */
  abandon(runId: string): void {
    const journal = this.open.get(runId);
    if (journal) journal.abandoned = true;
    else this.open.set(runId, { pending: [], broken: false, abandoned: true });
  }

  /**
   * The run's journal, in order, as this engine reads it (every older format upgraded): what a run
   * taken up again replays. One written by a newer executor is refused as `unavailable`.
   */
  async load(runId: string): Promise<JournalEntry[]> {
    try {
      return readJournal(await this.entries.load(runId));
    } catch (err) {
      if (err instanceof JournalFormatError) throw newerFormat(runId, 'journal', err.format, err.reads);
      throw err;
    }
  }

  private enqueue(runId: string, build: Build, first: boolean): void {
    let journal = this.open.get(runId);
    if (!journal) this.open.set(runId, (journal = { pending: [], broken: false }));
    journal.pending.push({ build, first });
    journal.draining ??= this.drain(runId, journal);
  }

  /** Starts on the next turn of the event loop, so entries completing at the same moment go together. */
  private async drain(runId: string, journal: OpenJournal): Promise<void> {
    await new Promise(setImmediate);
    for (let batch = journal.pending.splice(0); batch.length > 0; batch = journal.pending.splice(0)) {
      await this.write(runId, journal, batch);
    }
    journal.draining = undefined;
  }

  private async write(runId: string, journal: OpenJournal, batch: Pending[]): Promise<void> {
    const entries = await this.built(runId, journal, batch);
    if (entries)
      await this.entries
        .append(runId, entries)
        .catch((err: unknown) => this.broke(runId, journal, batch, err));
  }

  /** The batch's entries, numbered; none once the journal broke or the run was handed over. */
  private async built(
    runId: string,
    journal: OpenJournal,
    batch: Pending[],
  ): Promise<JournalEntry[] | undefined> {
    if (journal.abandoned) return undefined;
    if (journal.broken) return void this.unwritten(batch.length);
    try {
      const cursor = (journal.cursor ??= await this.cursorFor(runId, batch[0]));
      return batch.map((pending) => pending.build(cursor));
    } catch (err) {
      return this.broke(runId, journal, batch, err);
    }
  }

  private broke(runId: string, journal: OpenJournal, batch: Pending[], err: unknown): undefined {
    journal.broken = true;
    this.unwritten(batch.length);
    this.logger.error('could not write the run journal; the run goes on without it', { run_id: runId, err });
    return undefined;
  }

  /**
   * A new run's journal starts at 1 without a read; a run taken up again (its step count restored)
   * goes on from its last stored entry. Were a run ever journaled twice from 1, its key would refuse it.
   */
  private async cursorFor(runId: string, first: Pending): Promise<JournalCursor> {
    return new JournalCursor(first.first ? 0 : await this.entries.lastSeq(runId));
  }

  private unwritten(count: number): void {
    Metrics.runJournalUnwritten().inc(count);
  }
}
