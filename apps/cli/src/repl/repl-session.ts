import {
  AgentChassisError,
  type AgentChassisClient,
  type ChatEvent,
  type PendingApproval,
} from '@app/client';
import { InterruptibleTurn } from '../interruptible-turn';
import { ChatPrinter } from '../chat-printer';
import type { CliContext } from '../context';
import { traceTree } from '../trace-tree';
import { chooseHeldCall, decideHint } from './held-call-choice';

/** The REPL's state: the session and agent in use, the last run and its held calls, and the turn in flight. */
export class ReplSession {
  busy = false;
  private sessionId?: string;
  private agent?: string;
  private lastRunId?: string;
  /** The last run's function calls waiting for a decision, as its reply listed them. */
  private held: PendingApproval[] = [];
  private turn?: InterruptibleTurn;

  constructor(
    private readonly ctx: CliContext,
    private readonly client: AgentChassisClient,
    options: { agent?: string; session?: string },
  ) {
    this.agent = options.agent;
    this.sessionId = options.session;
  }

  describe(): string {
    return `agent ${this.agent ?? 'default'}, ${this.sessionId ? `session ${this.sessionId}` : 'new session'}`;
  }

  async handle(line: string): Promise<void> {
    this.busy = true;
    try {
      if (line.startsWith('/')) await this.command(line);
      else await this.say(line);
    } catch (err) {
      this.report(err);
    } finally {
      this.busy = false;
      this.turn = undefined;
    }
  }

  /** Ctrl-C during a turn: cancel the run on the server and stop reading its stream. */
  interrupt(): void {
    this.turn?.interrupt();
  }

  private async say(message: string): Promise<void> {
    const request = { message, session_id: this.sessionId, agent: this.sessionId ? undefined : this.agent };
    this.turn = new InterruptibleTurn(this.client, (err) => this.report(err));
    const onReconnect = (attempt: number, after: string) =>
      this.ctx.warn(
        this.ctx.style.dim(`[connection lost: resuming after event ${after}, attempt ${attempt}]`),
      );
    await this.follow(this.client.chatStream(request, { signal: this.turn.signal, onReconnect }));
  }

  private async follow(events: AsyncIterable<ChatEvent>): Promise<void> {
    const printer = new ChatPrinter(this.ctx.io.out, this.ctx.io.err, this.ctx.style);
    try {
      for await (const event of events) {
        printer.print(event);
        if (event.type !== 'run_start') continue;
        this.sessionId = event.data.session_id;
        this.lastRunId = event.data.run_id;
        this.held = [];
        this.turn?.started(event.data.run_id);
      }
    } catch (err) {
      if (!this.turn?.interrupted) throw err;
      this.ctx.line(this.ctx.style.yellow('[cancelled]'));
    }
    if (printer.reply) {
      this.sessionId = printer.reply.session_id;
      this.lastRunId = printer.reply.run_id;
      this.held = printer.reply.approvals ?? [];
      if (this.held.length) this.ctx.line(this.ctx.style.dim(decideHint(this.held)));
    }
  }

  private async command(line: string): Promise<void> {
    const [name, ...rest] = line.split(/\s+/);
    const s = this.ctx.style;
    switch (name) {
      case '/agent':
        if (!rest[0]) return this.ctx.line(`agent: ${this.agent ?? 'default'}`);
        // Checked now, not at the next message: an unknown name leaves the agent as it was.
        await this.client.agents.get(rest[0]);
        this.agent = rest[0];
        this.sessionId = undefined;
        return this.ctx.line(s.dim(`now ${this.describe()}`));
      case '/new':
        this.sessionId = undefined;
        return this.ctx.line(s.dim(`now ${this.describe()}`));
      case '/session': {
        if (!this.sessionId) return this.ctx.line(s.dim('no session yet: say something'));
        const session = await this.client.sessions.get(this.sessionId);
        this.ctx.line(`${s.bold(session.id)}  agent ${session.agent}, ${session.messages.length} messages`);
        for (const m of session.messages) this.ctx.line(`  ${s.dim(m.role)}: ${m.content}`);
        return;
      }
      case '/trace':
        if (!this.lastRunId) return this.ctx.line(s.dim('no run yet'));
        return this.ctx.line(traceTree(await this.client.runs.trace(this.lastRunId), s));
      case '/approve':
        if (!this.lastRunId) return this.ctx.line(s.dim('no run yet'));
        return this.held.length ? this.approveCall(this.lastRunId, rest) : this.approvePlan(this.lastRunId);
      case '/reject': {
        if (!this.lastRunId) return this.ctx.line(s.dim('no run yet'));
        if (this.held.length) return this.rejectCall(this.lastRunId, rest);
        const reason = rest.join(' ').trim();
        const reply = await this.client.runs.reject(this.lastRunId, reason ? { reason } : undefined);
        return this.ctx.line(`${reply.run_id}: ${reply.finish_reason}`);
      }
      default:
        return this.ctx.line(`unknown command ${name}: /help lists them`);
    }
  }

  private approvePlan(runId: string): Promise<void> {
    const turn = this.decisionTurn(runId);
    return this.follow(this.client.runs.approveStream(runId, { signal: turn.signal }));
  }

  private async approveCall(runId: string, words: string[]): Promise<void> {
    const choice = chooseHeldCall(this.held, words);
    if ('problem' in choice) return this.ctx.line(choice.problem);
    if (choice.rest.length) return this.ctx.line(`no held call ${choice.rest[0]}`);
    const decision = { call_id: choice.call.call_id, hash: choice.call.hash };
    const turn = this.decisionTurn(runId);
    return this.follow(this.client.runs.approveStream(runId, { signal: turn.signal, decision }));
  }

  private async rejectCall(runId: string, words: string[]): Promise<void> {
    const choice = chooseHeldCall(this.held, words);
    if ('problem' in choice) return this.ctx.line(choice.problem);
    const reason = choice.rest.join(' ');
    const decision = { call_id: choice.call.call_id, hash: choice.call.hash, ...(reason ? { reason } : {}) };
    const turn = this.decisionTurn(runId);
    return this.follow(this.client.runs.rejectStream(runId, { signal: turn.signal, decision }));
  }

  /** A decision carries the run on: Ctrl-C cancels it, as during a turn. */
  private decisionTurn(runId: string): InterruptibleTurn {
    this.turn = new InterruptibleTurn(this.client, (err) => this.report(err));
    this.turn.started(runId);
    return this.turn;
  }

  private report(err: unknown): void {
    const s = this.ctx.errStyle;
    if (err instanceof AgentChassisError) this.ctx.warn(`${s.red('error')}: ${err.message} (${err.code})`);
    else this.ctx.warn(`${s.red('error')}: ${(err as Error)?.message ?? String(err)}`);
  }
}
