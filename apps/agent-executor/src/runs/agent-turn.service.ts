import { Inject, Injectable } from '@nestjs/common';
import type { AgentRunReply, AgentRunRequest } from '@app/contracts';
import { NotFoundError } from '@app/contracts';
import type { PlatformConfig } from '@app/config';
import { activeTraceId } from '@app/observability';
import { PLATFORM_CONFIG } from '@app/runtime';
import { type AgentProfile, DEFAULT_AGENT } from '../agents/agent-profile';
import { AgentProfilesService } from '../agents/agent-profiles.service';
import { newId } from '../common/ids';
import { requireOwner } from '../common/ownership';
import type { ChatMessage } from '../llm/llm-provider';
import { PlanRunnerService } from '../plans/plan-runner.service';
import { SessionHistoryService } from '../sessions/session-history.service';
import { type SessionRecord, SessionRepository } from '../sessions/session.repository';
import { RunExecutionService } from './run-execution.service';
import { RunLoopService } from './run-loop.service';
import { RunState } from './run-state';
import { RunRepository } from './run.repository';

const TITLE_CHARS = 80;

/**
 * One conversation turn (`agent.run`): finds or opens the session, picks the agent, records the
 * run, loads the windowed history and hands the turn to the ReAct loop or the plan runner.
 */
@Injectable()
export class AgentTurnService {
  constructor(
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
    @Inject(AgentProfilesService) private readonly profiles: AgentProfilesService,
    @Inject(SessionRepository) private readonly sessions: SessionRepository,
    @Inject(SessionHistoryService) private readonly history: SessionHistoryService,
    @Inject(RunRepository) private readonly runs: RunRepository,
    @Inject(RunExecutionService) private readonly execution: RunExecutionService,
    @Inject(RunLoopService) private readonly loop: RunLoopService,
    @Inject(PlanRunnerService) private readonly planRunner: PlanRunnerService,
  ) {}

  async run(request: AgentRunRequest): Promise<AgentRunReply> {
    const existing = request.session_id ? await this.sessions.find(request.session_id) : null;
    if (request.session_id && !existing) throw new NotFoundError('session', request.session_id);
    if (existing) requireOwner('session', existing.id, existing.owner, request.principal);
    const profile = await this.profiles.get(request.agent ?? existing?.agent ?? DEFAULT_AGENT);
    const session = existing ?? this.newSession(request, profile);
    const identity = {
      runId: request.run_id ?? newId('run'),
      sessionId: session.id,
      principal: request.principal,
      scopes: request.scopes,
      stream: request.stream === true,
    };
    const run = new RunState(identity, profile, this.timeoutFor(profile));
    return this.execution.execute(
      run,
      request.message,
      () => this.record(run, request, existing ? undefined : session),
      () => this.work(run, session, request.message, !existing),
    );
  }

  /** The overall deadline: the profile's, never past the platform's (the gateway waits that long). */
  timeoutFor(profile: AgentProfile): number {
    return Math.min(profile.run_timeout ?? Number.POSITIVE_INFINITY, this.config.executor.run_timeout);
  }

  private async work(run: RunState, session: SessionRecord, message: string, isNew: boolean) {
    if (isNew) run.sessionLastSeq = 0;
    const history = isNew ? [] : await this.history.load(run, session);
    const conversation: ChatMessage[] = [...history, { role: 'user', content: message }];
    return run.profile.mode === 'plan'
      ? this.planRunner.start(run, conversation)
      : this.loop.run(run, conversation);
  }

  private newSession(request: AgentRunRequest, profile: AgentProfile): SessionRecord {
    return {
      id: newId('ses'),
      agent: profile.name,
      owner: request.principal ?? '',
      summary: null,
      summary_upto: 0,
    };
  }

  /** The run's record, and for a new session the session itself, in one transaction. */
  private async record(run: RunState, request: AgentRunRequest, newSession?: SessionRecord): Promise<void> {
    const title = request.message.slice(0, TITLE_CHARS);
    const openSession = newSession
      ? [
          this.sessions.createWrite({
            id: newSession.id,
            agent: newSession.agent,
            owner: newSession.owner,
            title,
          }),
        ]
      : [];
    await this.runs.create(
      {
        id: run.runId,
        session_id: run.id.sessionId,
        owner: request.principal ?? '',
        agent: run.profile.name,
        mode: run.profile.mode,
        input: request.message,
        trace_id: activeTraceId(),
      },
      openSession,
    );
  }
}
