import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { type AgentRunReply, RunHandedOverError } from '@app/contracts';
import type { PlatformConfig } from '@app/config';
import { PLATFORM_CONFIG } from '@app/runtime';
import { type HeldApproval, pendingView } from '../store/held-approval';
import { heldApprovals } from './held-calls';
import { RunApprovalRepository } from '../store/run-approval.repository';
import { initialiseCounter, Logger, Metrics } from '@app/observability';
import { countTokens } from '@app/protocol';
import {
  type JournalEntry,
  newId,
  pricedUsage,
  replyOf,
  type RunOutcome,
  type RunState,
  statusOf,
} from '@app/agent-core';
import type { AgentProfile } from '../agents/agent-profile';
import { type NewMessage, SessionRepository } from '../store/session.repository';
import { TurnWritesRepository } from '../store/turn-writes.repository';
import { endsTurn } from '../journal/run-journal.store';
import { MemoryArchiverService } from '../memory/memory-archiver.service';
import { memoryEnabled } from '../memory/memory-scope';
import { RunLeases } from './run-leases.service';
import { type RunProgress, type RunRecord, RunRepository } from '../store/run.repository';

type HostedRun = RunState<AgentProfile>;

/**
 * Ends a run: writes its record (status, reply, trace, usage), appends the turn to the session
 * (unless the run only paused for approval) and builds the chat response (the engine tells it in `run_end`).
 * A run in flight is ended only while this executor holds its lease (one conditional write): an
 * executor that lost it (paused past the lapse, cut off from the database) neither records nor
 * answers the run; the executor that took it over ends it.
 */
@Injectable()
export class RunFinisherService implements OnModuleInit {
  constructor(
    @Inject(RunRepository) private readonly runs: RunRepository,
    @Inject(TurnWritesRepository) private readonly turns: TurnWritesRepository,
    @Inject(SessionRepository) private readonly sessions: SessionRepository,
    @Inject(RunApprovalRepository) private readonly approvals: RunApprovalRepository,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
    @Inject(RunLeases) private readonly leases: RunLeases,
    @Inject(Logger) private readonly logger: Logger,
    @Inject(MemoryArchiverService) private readonly memory: MemoryArchiverService,
  ) {}

  onModuleInit(): void {
    initialiseCounter(Metrics.runEndsFenced(), [{}]);
  }

  /**
   * `input`: the turn's message, kept in the session; `lastSeq`: the session's last message as the
   * turn read it; `journalTail`: the run's last journal entries, for a turn's end to write in its
   * transaction.
   */
  async finish(
    run: HostedRun,
    outcome: RunOutcome,
    { input, lastSeq, journalTail }: { input: string; lastSeq?: number; journalTail: JournalEntry[] },
  ): Promise<AgentRunReply> {
    const status = statusOf(outcome.finishReason);
    const totalMs = run.totalMs();
    const progress: RunProgress = {
      status,
      reply: outcome.reply,
      finish_reason: outcome.finishReason,
      error: outcome.error,
      plan: run.plan,
      trace: [...run.trace],
      used_tools: run.usedTools,
      usage: pricedUsage(run.usage, run.price),
      total_ms: totalMs,
    };
    const held = outcome.heldCalls ? await this.holdCalls(run, outcome) : undefined;
    const written = !endsTurn(outcome)
      ? await this.savePause(run, progress)
      : await this.finishTurn(
          run.identity.sessionId,
          run.runId,
          progress,
          input,
          outcome.transcript ?? outcome.reply,
          { run, journalTail, lastSeq },
        );
    if (!written) this.fenced(run);
    if (status === 'completed' && memoryEnabled(run.definition)) this.remember(run, input, outcome.reply);
    const body = await this.withSessionCost(run, {
      ...replyOf(run, outcome),
      ...(held ? { approvals: held.map(pendingView) } : {}),
    });
    Metrics.runs().inc({ agent: run.definition.name, finish_reason: outcome.finishReason });
    Metrics.runSteps().observe(run.step);
    // One line per run is noise at volume; a run that failed is worth a warning.
    const log = outcome.finishReason === 'error' ? this.logger.warn : this.logger.debug;
    log.call(this.logger, 'run ended', {
      run_id: run.runId,
      agent: run.definition.name,
      finish_reason: outcome.finishReason,
      steps: run.step,
      tool_calls: run.toolCallsExecuted,
      tokens: run.usage.prompt_tokens + run.usage.completion_tokens,
      total_ms: totalMs,
      ...(outcome.error ? { error: outcome.error } : {}),
    });
    return body;
  }

  /** Stores the calls the run holds (before its status says so) and tells the stream what waits. */
  private async holdCalls(run: HostedRun, outcome: RunOutcome): Promise<HeldApproval[]> {
    const timeout = run.definition.approval_timeout ?? this.config.executor.approval_timeout;
    const held = heldApprovals(outcome.heldCalls ?? [], new Date(), timeout);
    await this.approvals.hold(run.runId, held);
    for (const approval of held)
      run.emit('approval_required', { run_id: run.runId, ...pendingView(approval) });
    return held;
  }

  /** A pause for approval, fenced on the lease: false when it was lost (a run deleted with its session is just gone). */
  private async savePause(run: HostedRun, progress: RunProgress): Promise<boolean> {
    if (await this.runs.save(run.runId, progress, this.leases.owner)) return true;
    return !(await this.runs.exists(run.runId));
  }

  /** Another executor holds the run's lease now: this one drops the run and lets that one end it. */
  private fenced(run: HostedRun): never {
    this.logger.warn('a run taken over by another executor ended here too late: its end is dropped', {
      run_id: run.runId,
      agent: run.definition.name,
    });
    Metrics.runEndsFenced().inc();
    throw new RunHandedOverError(run.runId);
  }

  /** A priced run's reply says what its session has cost so far (one sum over the session's runs). */
  private async withSessionCost(run: HostedRun, body: AgentRunReply): Promise<AgentRunReply> {
    if (!run.price || !run.identity.sessionId) return body;
    const spent = await this.sessions.cost(run.identity.sessionId);
    return spent === undefined ? body : { ...body, session_cost_so_far: spent };
  }

  /** Archives the completed run to the agent's memory, behind the reply. */
  private remember(run: HostedRun, input: string, reply: string): void {
    const { runId, sessionId, principal } = run.identity;
    this.memory.archive({
      runId,
      sessionId,
      principal: principal ?? '',
      agent: run.definition.name,
      input,
      trace: run.trace,
      reply,
      at: new Date(),
    });
  }

  /** Ends a run that is not in flight anywhere (paused for approval, or orphaned by a dead executor). */
  async finishStored(record: RunRecord, outcome: RunOutcome): Promise<AgentRunReply> {
    const progress = storedProgress(record, outcome);
    if (record.session_id)
      await this.finishTurn(record.session_id, record.id, progress, record.input, outcome.reply);
    else await this.runs.save(record.id, progress);
    this.logger.debug('run ended', {
      run_id: record.id,
      agent: record.agent,
      finish_reason: outcome.finishReason,
    });
    return storedReply(record, outcome);
  }

  /** Ends a run paused for client tool results without their answer: its turn goes in the session as it ended. */
  closePaused(record: RunRecord, outcome: RunOutcome): Promise<AgentRunReply> {
    return this.finishStored(record, { ...outcome, error: undefined });
  }

  /**
   * The turn's messages (its request, any the caller added meanwhile, its reply) and the run's final record, in one transaction (fenced on the lease
   * for a run in flight here): false when the lease was lost.
   */
  private async finishTurn(
    sessionId: string,
    runId: string,
    progress: RunProgress,
    input: string,
    reply: string,
    { run, journalTail, lastSeq }: { run?: HostedRun; journalTail?: JournalEntry[]; lastSeq?: number } = {},
  ): Promise<boolean> {
    const model = run?.definition.model;
    const message = (role: NewMessage['role'], content: string): NewMessage => ({
      id: newId('msg'),
      role,
      content,
      tokens: countTokens(content, model),
    });
    // the messages the caller added while the run ran follow its request, as the model read them
    const joined = progress.trace.flatMap((s) => (s.kind === 'user_message' && s.message ? [s.message] : []));
    const messages = [
      message('user', input),
      ...joined.map((text) => message('user', text)),
      message('assistant', reply),
    ];
    const written = await this.turns.finishTurn({
      runId,
      progress,
      sessionId,
      messages,
      lastSeq,
      journal: journalTail,
      ...(run ? { leaseOwner: this.leases.owner } : {}),
    });
    if (written === 'session_gone')
      this.logger.debug('the session was deleted while its run was in flight', { run_id: runId });
    return written !== 'fenced';
  }
}

/** The final record of a run that ends where it is stored: its trace and usage as they stand. */
function storedProgress(record: RunRecord, outcome: RunOutcome): RunProgress {
  return {
    status: statusOf(outcome.finishReason),
    reply: outcome.reply,
    finish_reason: outcome.finishReason,
    ...(outcome.error ? { error: outcome.error } : {}),
    trace: record.trace,
    used_tools: record.used_tools,
    usage: record.usage,
    total_ms: record.total_ms,
  };
}

function storedReply(record: RunRecord, outcome: RunOutcome): AgentRunReply {
  return {
    session_id: record.session_id ?? '',
    run_id: record.id,
    reply: outcome.reply,
    function_calls: [],
    finish_reason: outcome.finishReason,
    usage: record.usage,
  };
}
