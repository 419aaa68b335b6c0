import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { Bus } from '@app/bus';
import {
  AppError,
  type AgentRunReply,
  type AgentRunRequest,
  CLIENT_CALL_ID_PATTERN,
  Routes,
  type Scope,
  type Usage,
} from '@app/contracts';
import { usageAdded } from './usage-added';
import type { PlatformConfig } from '@app/config';
import { PLATFORM_CONFIG } from '@app/runtime';
import type { TurnRequest } from './turn-request';
import { type AdmittedAhead, UsageLimits } from '@app/limits';
import { ChatIdempotencyService, type KeyedTurn } from './chat-idempotency.service';
import { followRun, followStartedRun, neverStarted } from './run-follower';
import { RunTakeovers } from './run-takeovers';
import { type RunEvents, runEvents } from './run-events';
import { RunEventLog } from './run-event-log';

export interface Caller {
  principal: string;
  keyId: string;
  /** The key's scopes: they bound what the run's function calls may do for it. */
  scopes: Scope[];
  /** The key's own daily budget in USD, when it has one. */
  dailyCostBudgetUsd?: number;
  /** The run's admission, made with the request's rate-limit hit. */
  admittedAhead?: AdmittedAhead;
}

/** Past the run's own deadline, how long the gateway still waits for the executor's answer. */
export const EXECUTOR_REPLY_GRACE_MS = 5_000;

/**
 * A chat turn: one `agent.run` request within the calling key's limits, answered with the run's
 * reply or as the run's events. Every door (`/api/v1/chat`, OpenAI's, Anthropic's, A2A, AG-UI,
 * MCP) goes through here and translates.
 */
@Injectable()
export class ChatService {
  constructor(
    @Inject(Bus) private readonly bus: Bus,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
    @Inject(UsageLimits) private readonly limits: UsageLimits,
    @Inject(ChatIdempotencyService) private readonly idempotency: ChatIdempotencyService,
    @Inject(RunTakeovers) private readonly takeovers: RunTakeovers,
    @Inject(RunEventLog) private readonly events: RunEventLog,
  ) {}

  /**
   * `signal`: aborts when the caller's connection closes early (its run slot is then freed).
   * `idempotencyKey`: a retry with it and the same body answers from the run it started.
   */
  async chat(
    request: TurnRequest,
    caller: Caller,
    signal?: AbortSignal,
    idempotencyKey?: string,
  ): Promise<AgentRunReply> {
    if (!idempotencyKey) return this.turn(this.toRun(request), caller, signal);
    const keyed = await this.idempotency.claim(idempotencyKey, caller.principal, request, newRunId());
    if (await this.follows(keyed, caller)) return this.followStarted(keyed.claim.runId, caller);
    return this.keyedTurn(keyed, caller, () =>
      this.turn({ ...this.toRun(request), run_id: keyed.claim.runId }, caller, signal),
    );
  }

  /** `chat`, as the run's events. */
  async *stream(
    request: TurnRequest,
    caller: Caller,
    signal?: AbortSignal,
    idempotencyKey?: string,
  ): RunEvents {
    if (!idempotencyKey) return yield* this.streamTurn(this.toRun(request), caller, signal);
    const keyed = await this.idempotency.claim(idempotencyKey, caller.principal, request, newRunId());
    const { runId } = keyed.claim;
    if (await this.follows(keyed, caller)) return yield* this.follow(runId, caller);
    try {
      yield* this.streamTurn({ ...this.toRun(request), run_id: runId }, caller, signal);
    } catch (err) {
      await this.releaseUnstarted(keyed, caller);
      throw err;
    }
  }

  /**
   * The caller's run's events after the event numbered `after` (0: every one kept), to its end: a
   * stream that lost its connection resumed with its `Last-Event-ID`, on any gateway. Refused with
   * `not_found` before anything is written when the run is not the caller's.
   */
  async *resume(runId: string, caller: Caller, after = 0): RunEvents {
    const ref = caller.principal ? { run_id: runId, principal: caller.principal } : { run_id: runId };
    await this.bus.request(Routes.agentRunGet, ref);
    yield* this.follow(runId, caller, after);
  }

  /**
   * A run already going (or ended), its events from now — or after the event numbered `after`
   * (0: from its first kept event) — to its end; a run that kept none ends with its reply.
   */
  follow(runId: string, caller: Caller, after?: number): RunEvents {
    return runEvents(this.events, runId, (ended) => this.followStarted(runId, caller, ended), {
      after,
      waitForReply: false,
    });
  }

  /**
   * One turn; sessions and runs belong to the calling key's principal ('' with authentication off).
   * A run the platform could not serve (its model unreachable, not configured) is an HTTP error, not a 200.
   * The run id is chosen here, so the run can be looked up if its reply is lost with the bus connection.
   */
  async turn(request: AgentRunRequest, caller: Caller, signal?: AbortSignal): Promise<AgentRunReply> {
    const run = {
      ...request,
      ...ownedBy(caller),
      run_id: request.run_id ?? runIdFor(request),
      stream: false,
    };
    const reply = await this.run(caller, run, signal);
    if (reply.error) throw failedRun(reply, reply.error);
    return reply;
  }

  /** The run id is chosen here (unless given) so the gateway can listen for the run's events before it starts. */
  streamTurn(request: AgentRunRequest, caller: Caller, signal?: AbortSignal): RunEvents {
    const runId = request.run_id ?? runIdFor(request);
    const run = { ...request, ...ownedBy(caller), run_id: runId, stream: true };
    return runEvents(this.events, runId, () => this.run(caller, run, signal));
  }

  /**
   * A run going on with the caller's tool results answers with its whole usage: only what this
   * turn adds is charged (what came before was charged with the turn that paused it).
   */
  private async run(
    caller: Caller,
    request: AgentRunRequest & { run_id: string },
    signal?: AbortSignal,
  ): Promise<AgentRunReply> {
    const timeoutMs = this.config.executor.run_timeout + EXECUTOR_REPLY_GRACE_MS;
    const before = request.tool_results ? await this.usageSoFar(request.run_id, caller) : undefined;
    const { reply } = await this.limits.withinLimits(
      caller,
      async () => {
        const reply = await followRun(this.bus, request, {
          timeoutMs,
          takeovers: this.takeovers,
          lostAfterMs: this.config.executor.lease_lapse,
        });
        return { reply, usage: before ? usageAdded(reply.usage, before) : reply.usage };
      },
      { signal },
    );
    return reply;
  }

  /** The usage of a paused run (none when it is not the caller's, or unknown: the executor says why). */
  private async usageSoFar(runId: string, caller: Caller): Promise<Usage> {
    const ref = caller.principal ? { run_id: runId, principal: caller.principal } : { run_id: runId };
    const run = await this.bus.request(Routes.agentRunGet, ref).catch(() => undefined);
    return run?.usage ?? { prompt_tokens: 0, completion_tokens: 0 };
  }

  /** A retry's answer: the run its key started, followed (its stored answer once it has one). */
  private async followStarted(runId: string, caller: Caller, signal?: AbortSignal): Promise<AgentRunReply> {
    const timeoutMs = this.config.executor.run_timeout + EXECUTOR_REPLY_GRACE_MS;
    const reply = await followStartedRun(this.bus, runId, caller.principal || undefined, timeoutMs, signal);
    if (reply.error) throw failedRun(reply, reply.error);
    return reply;
  }

  /**
   * Whether a keyed request follows the run its key holds: a retry does, unless no executor knows
   * that run — the request that claimed the key stopped before its run started (its gateway died:
   * nothing gave the key up), so this retry starts the run, under the claim's run id. If the first
   * request was only slow and starts it too, one of the two is refused (a run id is recorded once)
   * and follows the other's run.
   */
  private async follows(keyed: KeyedTurn, caller: Caller): Promise<boolean> {
    if (!keyed.replay) return false;
    return !(await neverStarted(this.bus, keyed.claim.runId, caller.principal || undefined));
  }

  /** A keyed turn refused before its run started gives its key up, so a retry can start it. */
  private async keyedTurn<T>(keyed: KeyedTurn, caller: Caller, turn: () => Promise<T>): Promise<T> {
    try {
      return await turn();
    } catch (err) {
      await this.releaseUnstarted(keyed, caller);
      throw err;
    }
  }

  private async releaseUnstarted(keyed: KeyedTurn, caller: Caller): Promise<void> {
    if (await neverStarted(this.bus, keyed.claim.runId, caller.principal || undefined))
      await this.idempotency.release(keyed.claim);
  }

  private toRun(request: TurnRequest): AgentRunRequest {
    const { message, session_id, agent } = request;
    return {
      message: message ?? '',
      ...(session_id ? { session_id } : {}),
      ...(agent ? { agent } : {}),
      ...('plan' in request ? { plan: request.plan } : {}),
      ...('instructions' in request && request.instructions ? { instructions: request.instructions } : {}),
      ...('routing_decision' in request && request.routing_decision
        ? { routing_decision: request.routing_decision }
        : {}),
    };
  }
}

/** A new run's id, chosen by the gateway so it can follow the run by it. */
export function newRunId(): string {
  return `run_${randomUUID().replaceAll('-', '')}`;
}

/** The run a request is a turn of: the paused run its tool results answer (it goes on), else a new one. */
export function runIdFor(request: AgentRunRequest): string {
  const answered = request.tool_results?.[0]?.tool_call_id;
  const match = answered ? CLIENT_CALL_ID_PATTERN.exec(answered) : null;
  return match ? match[1] : newRunId();
}

/** Whose the run is, and the scopes that bound what its function calls may do. */
function ownedBy(caller: Caller): { principal?: string; key_id: string; scopes: Scope[] } {
  return {
    ...(caller.principal ? { principal: caller.principal } : {}),
    key_id: caller.keyId,
    scopes: caller.scopes,
  };
}

/** The run is recorded all the same: its ids and finish reason go with the error, for GET /api/v1/runs/:id. */
export function failedRun(reply: AgentRunReply, error: NonNullable<AgentRunReply['error']>): AppError {
  const details = typeof error.details === 'object' && error.details !== null ? error.details : {};
  return new AppError(error.code, error.message, {
    ...details,
    run_id: reply.run_id,
    session_id: reply.session_id,
    finish_reason: reply.finish_reason,
  });
}
