import { Inject, Injectable } from '@nestjs/common';
import { Bus } from '@app/bus';
import {
  ConflictError,
  type MessageRouteReply,
  type MessageRouteRequest,
  NotFoundError,
  type RoutingDecision,
  Routes,
  UnavailableError,
  type Usage,
} from '@app/contracts';
import { classifyMessage, pricedUsage, PromptSet } from '@app/agent-core';
import { AgentProfilesService } from '../agents/agent-profiles.service';
import { requireOwner } from '../common/ownership';
import { ExecutorRuntimeService } from '../turns/executor-runtime.service';
import { type RunRecord, RunRepository } from '../store/run.repository';
import { SessionRepository } from '../store/session.repository';

/** An ended run's request and answer, cut to this, seed the run that follows it up. */
const CONTEXT_CHARS = 1_000;

/**
 * Where a chat message goes. With a run id: into that run while it runs (through the executor
 * holding it), else a new run in its session, told what it did. With a session whose run is
 * going: `join` it, start a `new` run beside it, or (`auto`) ask the model which; the decision
 * and its reason go into the trace of the run the message went to.
 */
@Injectable()
export class MessageRoutingService {
  constructor(
    @Inject(Bus) private readonly bus: Bus,
    @Inject(RunRepository) private readonly runs: RunRepository,
    @Inject(SessionRepository) private readonly sessions: SessionRepository,
    @Inject(AgentProfilesService) private readonly profiles: AgentProfilesService,
    @Inject(ExecutorRuntimeService) private readonly runtimes: ExecutorRuntimeService,
  ) {}

  async route(request: MessageRouteRequest): Promise<MessageRouteReply> {
    if (request.run_id) return this.toRun(request.run_id, request);
    if (!request.session_id) return { action: 'new' };
    const session = await this.sessions.find(request.session_id);
    if (!session) throw new NotFoundError('session', request.session_id);
    requireOwner('session', session.id, session.owner, request.principal);
    const active = (await this.sessions.activeRuns(session.id)).at(-1);
    if (!active) return { action: 'new', session_id: session.id };
    const { decision, usage } = await this.decide(request, session.agent, active.input);
    const asked = usage ? { usage } : {};
    if (decision.decision === 'new') return { action: 'new', session_id: session.id, decision, ...asked };
    return { ...(await this.join(active, session.id, request.message, decision)), ...asked };
  }

  private async toRun(runId: string, request: MessageRouteRequest): Promise<MessageRouteReply> {
    const run = await this.runs.find(runId);
    if (!run) throw new NotFoundError('run', runId);
    requireOwner('run', runId, run.owner, request.principal);
    const sessionId = run.session_id ?? '';
    if (run.status === 'running') return this.join(run, sessionId, request.message);
    if (run.status === 'awaiting_approval' || run.status === 'awaiting_tool_results')
      throw new ConflictError(`run '${runId}' is paused (${run.status}): answer it, or cancel it`);
    return { action: 'new', session_id: sessionId, context: await this.contextOf(run) };
  }

  /** Into the run's inbox, at the executor holding it; a run nobody holds is `unavailable`. */
  private async join(
    run: { id: string; lease_owner: string | null },
    sessionId: string,
    message: string,
    decision?: RoutingDecision,
  ): Promise<MessageRouteReply> {
    if (!run.lease_owner) throw new UnavailableError(`run '${run.id}' is held by no agent-executor`);
    await this.bus.request(Routes.agentRunInbox(run.lease_owner), {
      run_id: run.id,
      message,
      ...(decision ? { decision } : {}),
    });
    return { action: 'joined', run_id: run.id, session_id: sessionId };
  }

  /** The message's `routing`, else its agent's, else `auto`: then with what asking the model cost. */
  private async decide(
    request: MessageRouteRequest,
    agent: string,
    goal: string,
  ): Promise<{ decision: RoutingDecision; usage?: Usage }> {
    const profile = await this.profiles.get(agent);
    const routing = request.routing ?? profile.routing ?? 'auto';
    if (routing !== 'auto')
      return { decision: { decision: routing, routing, reason: `routing '${routing}' was asked for` } };
    const verdict = await classifyMessage(this.runtimes.modelFor(profile), new PromptSet(profile), {
      goal: goal.slice(0, CONTEXT_CHARS),
      message: request.message,
    });
    return {
      decision: { decision: verdict.join ? 'join' : 'new', routing, reason: verdict.reason },
      ...(verdict.usage ? { usage: pricedUsage(verdict.usage, this.runtimes.priceFor(profile)) } : {}),
    };
  }

  /** What an ended run did, for the prompt of the run that follows it up. */
  private async contextOf(run: RunRecord): Promise<string> {
    const profile = await this.profiles.get(run.agent);
    return new PromptSet(profile).render('earlier_run_context', {
      goal: run.input.slice(0, CONTEXT_CHARS),
      answer: (run.reply ?? '').slice(0, CONTEXT_CHARS),
    });
  }
}
