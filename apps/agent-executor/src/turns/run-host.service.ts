import { Inject, Injectable } from '@nestjs/common';
import { Agent, type ChatMessage, type RunContext, type RunInput } from '@app/agent-core';
import { type AgentRunReply, RunHandedOverError } from '@app/contracts';
import { Logger } from '@app/observability';
import type { AgentProfile } from '../agents/agent-profile';
import { RunJournalStore } from '../journal/run-journal.store';
import { memoryEnabled, memoryScopeOf } from '../memory/memory-scope';
import type { RunRecord } from '../store/run.repository';
import { SessionRepository } from '../store/session.repository';
import { ExecutorRuntimeService } from './executor-runtime.service';
import { RunFinisherService } from './run-finisher.service';
import { RunLeases } from './run-leases.service';
import { RunsInFlight } from './runs-in-flight';
import { SessionHistoryService } from './session-history.service';
import { type HostedTurn, identityOf, profileOf } from './hosted-turn';

/**
 * The run host: every turn of the executor runs here, one way — the run engine's own `execute`
 * (the same code the embedded SDK runs) on a runtime of the executor's ports, with what the
 * executor adds as the host's part: the run held in flight (interrupts and messages reach it), its
 * lease held while it works, a run handed over to another executor meanwhile dropped here, an
 * unexpected error logged (the caller reads only `internal error`), and the run's end recorded
 * (`RunFinisherService`) before `run_end` is told. The session is loaded, then the work starts.
 */
@Injectable()
export class RunHostService {
  constructor(
    @Inject(ExecutorRuntimeService) private readonly runtimes: ExecutorRuntimeService,
    @Inject(SessionRepository) private readonly sessions: SessionRepository,
    @Inject(SessionHistoryService) private readonly history: SessionHistoryService,
    @Inject(RunJournalStore) private readonly journal: RunJournalStore,
    @Inject(RunsInFlight) private readonly inFlight: RunsInFlight,
    @Inject(RunLeases) private readonly leases: RunLeases,
    @Inject(RunFinisherService) private readonly finisher: RunFinisherService,
    @Inject(Logger) private readonly logger: Logger,
  ) {}

  run(turn: HostedTurn): Promise<AgentRunReply> {
    const { profile } = turn;
    const journal = this.journal.forTurn();
    const agent = new Agent(
      this.runtimes.runtimeFor(profile, turn.identity.stream, journal),
      this.runtimes.definitionOf(profile),
    );
    // The session's last message as its history was read: saves a read when the turn is appended.
    let lastSeq = turn.fresh ? 0 : undefined;
    let reply: AgentRunReply | undefined;
    let settle!: (reply: Promise<AgentRunReply>) => void;
    const answered = new Promise<AgentRunReply>((resolve) => (settle = resolve));
    const history = async (ctx: RunContext): Promise<ChatMessage[]> => {
      if (turn.history) return turn.history(ctx);
      if (!turn.session || turn.fresh) return [];
      const loaded = await this.history.load(ctx, turn.session);
      lastSeq = loaded.lastSeq;
      return loaded.messages;
    };
    const result = agent.execute(this.inputOf(turn, history), {
      prior: turn.prior,
      resume: turn.resume,
      prepare: (run) => {
        this.inFlight.add(run, answered);
        turn.prepare?.(run);
      },
      host: {
        register: turn.register,
        started: (run) => this.leases.hold(run),
        stopped: (run) => this.leases.drop(run.runId),
        unexpected: (run, err) => {
          this.logger.error('run failed unexpectedly', { run_id: run.runId, err });
          return 'internal error';
        },
        lost: (run) => (this.leases.wasHandedOver(run.runId) ? new RunHandedOverError(run.runId) : undefined),
        ended: async (run, outcome) =>
          (reply = await this.finisher.finish(run, outcome, {
            input: turn.message,
            lastSeq,
            journalTail: journal.tail(),
          })),
      },
    });
    settle(result.then(() => reply as AgentRunReply));
    return answered;
  }

  /**
   * A stored run goes on here, as its record says (`identityOf`, `profileOf`): from its journal
   * (taken over, or a held call decided), or its approved plan carried out.
   */
  async carryOn(
    record: RunRecord,
    profile: AgentProfile,
    how: Pick<HostedTurn, 'prior' | 'resume' | 'register'> & { stream: boolean },
  ): Promise<AgentRunReply> {
    const session = record.session_id ? await this.sessions.find(record.session_id) : null;
    return this.run({
      identity: identityOf(record, how.stream),
      profile: profileOf(record, profile),
      message: record.input,
      session,
      // the caller's tools, offered again as when the run began (its prompt is the same)
      clientTools: record.turn_options.client_tools,
      prior: how.prior,
      resume: how.resume,
      register: how.register,
    });
  }

  private inputOf(turn: HostedTurn, history: RunInput['history']): RunInput {
    const { identity, profile } = turn;
    return {
      message: turn.message,
      history,
      runId: identity.runId,
      sessionId: identity.sessionId,
      principal: identity.principal,
      ...(identity.keyId ? { keyId: identity.keyId } : {}),
      scopes: identity.scopes,
      ...(identity.chain ? { chain: identity.chain } : {}),
      clientTools: turn.clientTools,
      ...(memoryEnabled(profile) ? { memoryScope: memoryScopeOf(profile, identity) } : {}),
      price: this.runtimes.priceFor(profile),
    };
  }
}
