import { Inject, Injectable } from '@nestjs/common';
import {
  type AgentRunReply,
  type AgentRunRequest,
  type ClientToolResult,
  ConflictError,
  type HistoryMessage,
  InvalidParamsError,
  NotFoundError,
} from '@app/contracts';
import { activeTraceId } from '@app/observability';
import { countTokens } from '@app/protocol';
import { type AgentProfile, DEFAULT_AGENT, withInstructions } from '../agents/agent-profile';
import { AgentProfilesService } from '../agents/agent-profiles.service';
import { ClientToolResultsService } from '../client-tools/client-tool-results.service';
import { ClientToolsService } from '../client-tools/client-tools.service';
import { DEFAULT_PLAN_GOAL, newId, type RunState } from '@app/agent-core';
import { requireOwner } from '../common/ownership';
import { type NewMessage, type SessionRecord, SessionRepository } from '../store/session.repository';
import { TurnWritesRepository } from '../store/turn-writes.repository';
import { ClientPlansService } from './client-plans.service';
import { RunHostService } from './run-host.service';
import { RunLeases } from './run-leases.service';
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
    @Inject(TurnWritesRepository) private readonly turns: TurnWritesRepository,
    @Inject(RunHostService) private readonly host: RunHostService,
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
    const earlier = existing ? [] : this.earlierMessages(request.history, profile);
    const routed = request.routing_decision;
    return this.host.run({
      identity: {
        runId: request.run_id ?? newId('run'),
        sessionId: session.id,
        principal: request.principal,
        ...(request.key_id ? { keyId: request.key_id } : {}),
        scopes: request.scopes,
        stream: request.stream === true,
        ...(lineage ? { chain: lineage.chain } : {}),
      },
      profile,
      message,
      session,
      fresh: !existing && earlier.length === 0,
      clientTools,
      prepare: (run) => {
        run.setPlan(planned?.plan);
        if (routed) run.addTrace(routingStep(0, message, routed));
      },
      register: (run) =>
        this.record(run, request, message, existing ? undefined : { session, earlier }, lineage),
    });
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
    run: RunState<AgentProfile>,
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
        agent: run.definition.name,
        mode: run.definition.mode,
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
