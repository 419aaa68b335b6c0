import type { AgentRunReply, ChatEvent, PendingApproval } from '@app/client';
import { compact, type Style } from './style';

export interface Terminal {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

/**
 * Prints a streamed turn: thoughts dimmed, tool calls and results on one line each, then the answer;
 * a call held for approval with all it takes to decide it (its arguments uncut, call id and hash).
 * On a terminal a step's text is shown as it streams; when the step turns out to be a thought (it
 * ends in calls), the streamed text is rewritten dimmed. Elsewhere only whole events are printed.
 */
export class ChatPrinter {
  runId?: string;
  sessionId?: string;
  reply?: AgentRunReply;
  private live = '';
  private liveStep = -1;
  private readonly heldShown = new Set<string>();

  constructor(
    private readonly out: Terminal,
    private readonly err: Terminal,
    private readonly style: Style,
  ) {}

  print(event: ChatEvent): void {
    const s = this.style;
    switch (event.type) {
      case 'run_start':
        this.runId = event.data.run_id;
        this.sessionId = event.data.session_id;
        return;
      case 'delta':
        if (!this.out.isTTY) return;
        if (event.data.step !== this.liveStep) this.endLive();
        this.liveStep = event.data.step;
        this.live += event.data.text;
        this.out.write(event.data.text);
        return;
      case 'thought':
        if (this.liveStep === event.data.step) this.eraseLive();
        this.out.write(`${s.dim(`· ${event.data.text.trim()}`)}\n`);
        return;
      case 'tool_call':
        this.endLive();
        this.out.write(`${s.cyan('→')} ${event.data.name}${s.dim(`(${compact(event.data.args, 80)})`)}\n`);
        return;
      case 'tool_result': {
        this.endLive();
        const d = event.data;
        const what = d.status === 'success' ? compact(d.result, 80) : `${d.error?.code}: ${d.error?.message}`;
        const mark = d.status === 'success' ? s.green('✓') : s.red('✗');
        this.out.write(`  ${mark} ${d.name} ${s.dim(`${d.elapsed_ms} ms`)} ${s.dim(what)}\n`);
        return;
      }
      case 'approval_required':
        this.endLive();
        return this.held(event.data);
      case 'user_message':
        this.endLive();
        this.out.write(`${s.cyan('+')} your message, read at step ${event.data.step}: ${event.data.text}\n`);
        return;
      case 'run_resumed':
        this.endLive();
        this.out.write(`${s.dim(`· resumed on another executor at step ${event.data.step}`)}\n`);
        return;
      case 'plan':
        this.endLive();
        this.out.write(`${s.bold('plan')}${s.dim(` (revision ${event.data.revision})`)}\n`);
        for (const step of event.data.steps)
          this.out.write(`  ${step.index + 1}. ${step.description} ${s.dim(`[${step.tool}]`)}\n`);
        return;
      case 'step':
        this.endLive();
        this.out.write(
          `${s.dim(`step ${event.data.index + 1} ${event.data.status}: ${event.data.description}`)}\n`,
        );
        return;
      case 'run_end':
        return this.end(event.data);
      case 'error':
        this.endLive();
        this.err.write(`${s.red('error')}: ${event.data.error.message} (${event.data.error.code})\n`);
        return;
    }
  }

  private end(reply: AgentRunReply): void {
    this.reply = reply;
    this.runId = reply.run_id;
    this.sessionId = reply.session_id;
    if (this.live && this.live.trim() === reply.reply.trim()) {
      this.live = '';
      this.liveStep = -1;
      this.out.write('\n');
    } else {
      this.eraseLive();
      if (reply.reply) this.out.write(`${reply.reply}\n`);
    }
    // a decision while other calls wait answers with the calls left, and no event for them
    for (const call of reply.approvals ?? []) if (!this.heldShown.has(call.call_id)) this.held(call);
    if (reply.finish_reason !== 'final')
      this.out.write(
        `${this.style.yellow(`[${reply.finish_reason}]`)} ${this.style.dim(`run ${reply.run_id}`)}\n`,
      );
  }

  private held(call: PendingApproval): void {
    const s = this.style;
    this.heldShown.add(call.call_id);
    const expires = call.expires_at ? ` · expires ${call.expires_at}` : '';
    this.out.write(
      `${s.yellow('?')} ${call.function}(${JSON.stringify(call.arguments)}) ${s.dim('waits for approval')}\n`,
    );
    this.out.write(`  ${s.dim(`call ${call.call_id} · hash ${call.hash}${expires}`)}\n`);
  }

  private endLive(): void {
    if (this.live && !this.live.endsWith('\n')) this.out.write('\n');
    this.live = '';
    this.liveStep = -1;
  }

  /** Moves the cursor back over the streamed text and clears it. */
  private eraseLive(): void {
    if (!this.live) return;
    const columns = this.out.columns || 80;
    const rows = this.live
      .split('\n')
      .reduce((n, line) => n + Math.max(1, Math.ceil(line.length / columns)), 0);
    this.out.write(`\r${rows > 1 ? `\x1b[${rows - 1}A` : ''}\x1b[J`);
    this.live = '';
    this.liveStep = -1;
  }
}
