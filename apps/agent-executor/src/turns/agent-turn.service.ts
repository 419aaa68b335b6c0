import { Inject, Injectable } from '@nestjs/common';
import {
  type AgentRunReply,
  type AgentRunRequest,
  type ClientToolResult,
  ConflictError,
  type HistoryMessage,
  InvalidParamsError,
  NotFoundError,
  type RoutingDecision,
} from '@app/contracts';
import { activeTraceId } from '@app/observability';
import { countTokens } from '@app/protocol';
import { type AgentProfile, DEFAULT_AGENT, withInstructions } from '../agents/agent-profile';
import { AgentProfilesService } from '../agents/agent-profiles.service';
import { ClientToolResultsService } from '../client-tools/client-tool-results.service';
import { ClientToolsService } from '../client-tools/client-tools.service';
import { DEFAULT_PLAN_GOAL, newId } from '@app/agent-core';
import { requireOwner } from '../common/ownership';
import { RunEngineService } from './run-engine.service';
import { SessionHistoryService } from './session-history.service';
import { type NewMessage, type SessionRecord, SessionRepository } from '../store/session.repository';
import { TurnWritesRepository } from '../store/turn-writes.repository';
import { ClientPlansService } from './client-plans.service';
import { RunExecutionService } from './run-execution.service';
import { RunLeases } from './run-leases.service';
import type { ExecutorRun } from './executor-run';
import { routingStep } from './routing-step';
import { boundedBy } from './run-lineage';
import { type RunLineage, RunRepository } from '../store/run.repository';
import { RunResumeService } from './run-resume.service';

const TITLE_CHARS = 80;
const HISTORY_ALONE = 'cannot be given with session_id or tool_results: a session holds its own history';

/**
 * One conversation turn (`agent.run`): finds or opens the session (opened with a caller-held
 * history, or the session of a run paused for client tool results), picks the agent, records the
 * run, loads the windowed history and hands the turn to the run engine (ReAct or plan).
 */
@Injectable()
export class AgentTurnService {
  constructor(
    @Inject(AgentProfilesService) private readonly profiles: AgentProfilesService,
    @Inject(SessionRepository) private readonly sessions: SessionRepository,
    @Inject(SessionHistoryService) private readonly history: SessionHistoryService,
    @Inject(TurnWritesRepository) private readonly turns: TurnWritesRepository,
    @Inject(RunExecutionService) private readonly execution: RunExecutionService,
    @Inject(RunEngineService) private readonly engine: RunEngineService,
    @Inject(ClientToolsService) private readonly clientTools: ClientToolsService,
    @Inject(ClientToolResultsService) private readonly results: ClientToolResultsService,
    @Inject(RunLeases) private readonly leases: RunLeases,
    @Inject(ClientPlansService) private readonly plans: ClientPlansService,
    @Inject(RunRepository) private readonly runs: RunRepository,
    @Inject(RunResumeService) private readonly resumer: RunResumeService,
  ) {}

  /** `lineage`: the run is another run's function call (an agent called as `agent_<name>`). */
  async run(request: AgentRunRequest, lineage?: RunLineage): Promise<AgentRunReply> {
    if (request.history && (request.session_id || request.tool_results))
      throw new InvalidParamsError([{ field: 'history', message: HISTORY_ALONE }], 'invalid run request');
    if (request.tool_results) return this.goOn(request, request.tool_results);
    const sessionId = request.session_id;
    const message = request.message || (request.plan ? DEFAULT_PLAN_GOAL : '');
    const existing = sessionId ? await this.sessions.find(sessionId) : null;
    if (sessionId && !existing) throw new NotFoundError('session', sessionId);
    if (existing) requireOwner('session', existing.id, existing.owner, request.principal);
    const agent = await this.profiles.get(request.agent ?? existing?.agent ?? DEFAULT_AGENT);
    const planned = request.plan ? await this.plans.prepare(request, agent) : undefined;
    const clientTools = await this.clientTools.offer(request.client_tools, agent);
    const own = planned?.profile ?? withInstructions(agent, request.instructions);
    const profile = lineage ? boundedBy(own, lineage) : own;
    const session = existing ?? this.newSession(request, profile);
    const identity = {
      runId: request.run_id ?? newId('run'),
      sessionId: session.id,
      principal: request.principal,
      ...(request.key_id ? { keyId: request.key_id } : {}),
      scopes: request.scopes,
      stream: request.stream === true,
      ...(lineage ? { chain: lineage.chain } : {}),
    };
    const run = this.engine.newRun(identity, profile);
    run.clientTools = clientTools;
    run.setPlan(planned?.plan);
    const earlier = existing ? [] : this.earlierMessages(request.history, profile);
    return this.execution.execute(
      run,
      message,
      () => this.record(run, request, message, existing ? undefined : { session, earlier }, lineage),
      () => this.work(run, session, message, !existing && earlier.length === 0, request.routing_decision),
    );
  }

  /**
   * A run paused for client tool results goes on with them: the same run, taken up from its
   * journal on this executor (its row claimed with a lease, so one answer wins).
   */
  private async goOn(request: AgentRunRequest, results: ClientToolResult[]): Promise<AgentRunReply> {
    const { record, results: answers } = await this.results.answered(request, results);
    if (!(await this.runs.transition(record.id, 'awaiting_tool_results', 'running', this.leases.lease())))
      throw new ConflictError(`run '${record.id}' no longer waits for tool results (answered meanwhile)`);
    const profile = await this.profiles.get(record.agent);
    return this.resumer.carryOn(
      { ...record, status: 'running' },
      profile,
      { stream: request.stream === true, takeover: false },
      { clientResults: answers },
    );
  }

  private async work(
    run: ExecutorRun,
    session: SessionRecord,
    message: string,
    isNew: boolean,
    routed?: RoutingDecision,
  ) {
    if (isNew) run.sessionLastSeq = 0;
    if (routed) run.addTrace(routingStep(0, message, routed));
    // Only a caller's plan is there before the work: announced as a model's plan is once written.
    if (run.plan) run.emit('plan', run.plan);
    const ctx = this.engine.contextFor(run);
    const history = isNew ? [] : await this.history.load(ctx, run, session);
    return this.engine.work(ctx, [...history, { role: 'user', content: message }]);
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

  /** A caller-held history becomes the new session's first messages. */
  private earlierMessages(history: HistoryMessage[] | undefined, profile: AgentProfile): NewMessage[] {
    return (history ?? []).map((m) => ({
      id: newId('msg'),
      role: m.role,
      content: m.content,
      tokens: countTokens(m.content, profile.model),
    }));
  }

  /** The run's record, and for a new session the session itself (with the caller's history), in one transaction. */
  private async record(
    run: ExecutorRun,
    request: AgentRunRequest,
    input: string,
    opening?: { session: SessionRecord; earlier: NewMessage[] },
    lineage?: RunLineage,
  ): Promise<void> {
    const title = (request.history?.find((m) => m.role === 'user')?.content ?? input).slice(0, TITLE_CHARS);
    await this.turns.startTurn(
      {
        id: run.runId,
        session_id: run.identity.sessionId,
        owner: request.principal ?? '',
        agent: run.profile.name,
        mode: run.profile.mode,
        input,
        trace_id: activeTraceId(),
        lease: this.leases.lease(),
        turn_options: {
          ...(request.scopes ? { scopes: request.scopes } : {}),
          ...(request.key_id ? { key_id: request.key_id } : {}),
          ...(request.instructions?.trim() ? { instructions: request.instructions } : {}),
          ...(lineage ? { lineage } : {}),
          ...(request.client_tools?.length ? { client_tools: request.client_tools } : {}),
        },
        ...(lineage?.parentRunId ? { parent_run_id: lineage.parentRunId } : {}),
      },
      opening && {
        id: opening.session.id,
        agent: opening.session.agent,
        owner: opening.session.owner,
        title,
        earlier: opening.earlier,
      },
    );
  }
}
