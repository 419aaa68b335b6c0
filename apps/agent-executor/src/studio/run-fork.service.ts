import { Inject, Injectable } from '@nestjs/common';
import { type JournalEntry, JournalReplay, newId, type RunState } from '@app/agent-core';
import type { PlatformConfig } from '@app/config';
import { type AgentRunReply, ConflictError, NotFoundError, type RunForkRequest } from '@app/contracts';
import { PLATFORM_CONFIG } from '@app/runtime';
import { type AgentProfile, modelNameOf, withInstructions } from '../agents/agent-profile';
import { AgentProfilesService } from '../agents/agent-profiles.service';
import { requireOwner } from '../common/ownership';
import { RunJournalStore } from '../journal/run-journal.store';
import { type RunRecord, RunRepository } from '../store/run.repository';
import { type SessionRecord, SessionRepository, type StoredMessage } from '../store/session.repository';
import { TurnWritesRepository } from '../store/turn-writes.repository';
import { RunHostService } from '../turns/run-host.service';
import { RunLeases } from '../turns/run-leases.service';
import { forkJournal } from './fork-journal';
import { historyBefore, historyMessages } from './run-history';

/** A run that has not ended cannot be forked: its journal is still being written. */
const GOING = new Set(['running', 'queued']);

/**
 * A fork: a new run that takes a run's steps before `from_step` from its journal and goes live
 * there, with what the model reads changed as the caller asks. It is one more way into the run
 * host: the new run is recorded (with the copied journal, and for a new session the run's earlier
 * history), then its strategy runs from the top on that journal — every copied model step and
 * call answered from it, nothing sent again, no event told again — and live from `from_step`,
 * leased, cancellable and recorded like any turn.
 */
@Injectable()
export class RunForkService {
  constructor(
    @Inject(RunRepository) private readonly runs: RunRepository,
    @Inject(RunJournalStore) private readonly journal: RunJournalStore,
    @Inject(SessionRepository) private readonly sessions: SessionRepository,
    @Inject(AgentProfilesService) private readonly profiles: AgentProfilesService,
    @Inject(TurnWritesRepository) private readonly turns: TurnWritesRepository,
    @Inject(RunHostService) private readonly host: RunHostService,
    @Inject(RunLeases) private readonly leases: RunLeases,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
  ) {}

  async fork(request: RunForkRequest): Promise<AgentRunReply> {
    const source = await this.runs.find(request.from_run);
    if (!source) throw new NotFoundError('run', request.from_run);
    requireOwner('run', source.id, source.owner, request.principal);
    if (GOING.has(source.status))
      throw new ConflictError(`run '${source.id}' is still ${source.status}: fork it once it has stopped`);
    const profile = await this.profileOf(source, request);
    const copied = forkJournal(
      await this.journal.load(source.id),
      { fromStep: request.from_step, message: request.message, toolResults: request.tool_results },
      { maxLen: profile.observation_max_len, model: modelNameOf(profile, this.config) },
    );
    const input = request.from_step === 1 && request.message ? request.message : source.input;
    const history = await historyBefore(this.sessions, source);
    const session = await this.sessionOf(source, request, profile);
    return this.host.run({
      identity: {
        runId: request.run_id,
        sessionId: session.id,
        principal: request.principal,
        ...(request.key_id ? { keyId: request.key_id } : {}),
        scopes: request.scopes,
        stream: request.stream === true,
      },
      profile,
      message: input,
      session: null,
      // what the source run read before its message, not the session's history now
      history: async (ctx) => historyMessages(ctx, profile, history),
      resume: { replay: new JournalReplay(copied) },
      register: (run) =>
        this.record(run, source, request, input, copied, session.opened ? history.messages : undefined),
    });
  }

  /** The run's agent (or the one asked for), with the run's instructions, and the model asked for. */
  private async profileOf(source: RunRecord, request: RunForkRequest): Promise<AgentProfile> {
    const agent = await this.profiles.get(request.agent ?? source.agent);
    const own = withInstructions(agent, source.turn_options.instructions);
    return request.model ? { ...own, model: request.model } : own;
  }

  /** The run's own session (`same`), or a new one that the fork opens with the run's earlier history. */
  private async sessionOf(
    source: RunRecord,
    request: RunForkRequest,
    profile: AgentProfile,
  ): Promise<SessionRecord & { opened: boolean }> {
    if (request.session === 'same') {
      const same = source.session_id ? await this.sessions.find(source.session_id) : null;
      if (!same) throw new NotFoundError('session', source.session_id ?? '(none)');
      return { ...same, opened: false };
    }
    const owner = request.principal ?? source.owner;
    return { id: newId('ses'), agent: profile.name, owner, summary: null, summary_upto: 0, opened: true };
  }

  /** The fork's record, its journal so far and, for a new session, the session with the run's earlier messages. */
  private async record(
    run: RunState<AgentProfile>,
    source: RunRecord,
    request: RunForkRequest,
    input: string,
    copied: JournalEntry[],
    earlier?: StoredMessage[],
  ): Promise<void> {
    await this.turns.startTurn(
      {
        id: run.runId,
        session_id: run.identity.sessionId,
        owner: request.principal ?? '',
        agent: run.definition.name,
        mode: run.definition.mode,
        input,
        lease: this.leases.lease(),
        turn_options: {
          ...(request.scopes ? { scopes: request.scopes } : {}),
          ...(request.key_id ? { key_id: request.key_id } : {}),
          ...(source.turn_options.instructions ? { instructions: source.turn_options.instructions } : {}),
        },
        fork: { from: source.id, step: request.from_step },
      },
      earlier && {
        id: run.identity.sessionId,
        agent: run.definition.name,
        owner: request.principal ?? '',
        title: `Fork of ${source.id} at step ${request.from_step}`.slice(0, 80),
        earlier: earlier.map((m) => ({
          id: newId('msg'),
          role: m.role,
          content: m.content,
          tokens: m.tokens,
        })),
      },
      copied,
    );
  }
}
