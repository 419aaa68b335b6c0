import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunView } from '@app/client';
import { expectEventually } from '@app/testing';
import { ADMIN_KEY, addCall, CLI, type ClientStack, runCli, startClientStack } from './client-stack';

const exec = promisify(execFile);

/** A REPL in a real terminal: tmux on a server of its own, driven with send-keys, read with capture-pane. */
class TmuxRepl {
  private readonly socket = `ac-repl-${randomUUID().slice(0, 8)}`;

  constructor(private readonly session: string) {}

  async start(env: Record<string, string>, args: string[]): Promise<void> {
    const vars = Object.entries(env).map(([k, v]) => `${k}=${v}`);
    const command = ['env', ...vars, process.execPath, CLI, 'repl', ...args].map(quote).join(' ');
    // The pane stays after the REPL exits, so its last words and exit code can be read.
    await this.tmux(
      'new-session',
      '-d',
      '-s',
      this.session,
      '-x',
      '160',
      '-y',
      '60',
      `${command}; echo "exit=$?"; sleep 600`,
    );
  }

  keys(...keys: string[]): Promise<unknown> {
    return this.tmux('send-keys', '-t', this.session, ...keys);
  }

  /** Types a line literally, then Enter. */
  async line(text: string): Promise<void> {
    await this.keys('-l', text);
    await this.keys('Enter');
  }

  async screen(): Promise<string> {
    return (await this.tmux('capture-pane', '-p', '-J', '-t', this.session, '-S', '-200')).stdout;
  }

  async waitFor(pattern: RegExp, timeoutMs = 15_000): Promise<string> {
    return expectEventually(
      async () => {
        const screen = await this.screen();
        expect(screen).toMatch(pattern);
        return screen;
      },
      { timeoutMs },
    );
  }

  stop(): Promise<unknown> {
    return this.tmux('kill-server').catch(() => undefined);
  }

  private tmux(...args: string[]) {
    return exec('tmux', ['-u', '-L', this.socket, ...args], { env: { ...process.env, LANG: 'C.UTF-8' } });
  }
}

const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

describe('agentchassis repl in a terminal (tmux) against the four services', () => {
  let stack: ClientStack;
  let env: Record<string, string>;
  const repls: TmuxRepl[] = [];
  const home = mkdtempSync(join(tmpdir(), 'ac-repl-home-'));

  beforeAll(async () => {
    stack = await startClientStack();
    env = { AC_URL: stack.base, AC_API_KEY: ADMIN_KEY, HOME: home, LANG: 'C.UTF-8', TERM: 'xterm-256color' };
  });
  afterAll(async () => {
    await Promise.all(repls.map((r) => r.stop()));
    await stack?.close();
  });

  const repl = async (args: string[] = []) => {
    const r = new TmuxRepl('repl');
    repls.push(r);
    await r.start(env, args);
    await r.waitFor(/agentchassis repl: agent \S+, new session/);
    return r;
  };

  it('keeps one session across two turns, cancels a turn on Ctrl-C, shows the trace, and quits', async () => {
    const r = await repl();
    // replies[i] answers the i-th turn of a conversation: the second answer needs the first in history.
    stack.llm.setScript({
      replies: ['Hello Ada.', 'You are Ada.', `Adding.\n${addCall(2, 3)}`, 'Five.'],
      rules: [{ match: 'take your time', reply: { text: 'too late', latencyMs: 20_000 } }],
    });
    await r.line('I am Ada.');
    await r.waitFor(/you> I am Ada\.\nHello Ada\.\nyou> $/m);
    await r.line('Who am I?');
    await r.waitFor(/you> Who am I\?\nYou are Ada\.\nyou> $/m);

    await r.line('/session');
    await r.waitFor(
      /ses_\S+ {2}agent default, 4 messages\n {2}user: I am Ada\.\n {2}assistant: Hello Ada\.\n {2}user: Who am I\?\n {2}assistant: You are Ada\./,
    );

    // On a terminal the streamed thought is rewritten dimmed once the step turns out to call a tool.
    await r.line('Two plus three?');
    await r.waitFor(
      /you> Two plus three\?\n· Adding\.\n→ add\(\{"a":2,"b":3\}\)\n {2}✓ add \d+ ms \{"data":\{"sum":5\}\}\nFive\.\nyou> $/m,
    );

    await r.line('take your time');
    await expectEventually(() =>
      expect(JSON.stringify(stack.llm.requests().at(-1)?.body)).toContain('take your time'),
    );
    await r.keys('C-c');
    await r.waitFor(/you> take your time\n\[cancelled\]\nyou> $/m);
    await r.line('/trace');
    await r.waitFor(/run_\S+ {2}default \(react\) {2}cancelled · cancelled/);

    await r.line('/quit');
    await r.waitFor(/bye\nexit=0/);
    expect(readFileSync(join(home, '.agentchassis_history'), 'utf8')).toBe(
      'I am Ada.\nWho am I?\n/session\nTwo plus three?\ntake your time\n/trace\n/quit\n',
    );
  });

  it('prints calls held for approval and decides them: the only one, or one of two named with a reason', async () => {
    const r = await repl(['--no-history', '--agent', 'guarded']);
    const adds = () => stack.functions.calls.filter((c) => c.name === 'add').map((c) => c.request.params);
    const before = adds().length;
    stack.llm.setScript({ replies: [`Adding. ${addCall(2, 3)}`, 'Five.'] });
    await r.line('Two plus three, once approved');
    await r.waitFor(
      /\? add\(\{"a":2,"b":3\}\) waits for approval\n {2}call run_\S+:1:0 · hash [0-9a-f]{64}\n[\s\S]*\/approve runs it, \/reject \[reason…\] refuses it\nyou> $/m,
    );
    expect(adds().length).toBe(before);
    await r.line('/approve');
    await r.waitFor(/you> \/approve\n[\s\S]*Five\.\nyou> $/m);
    expect(adds().slice(before)).toEqual([{ a: 2, b: 3 }]);

    await r.line('/new');
    stack.llm.setScript({
      replies: [`Both. ${addCall(4, 4)}${addCall(1, 1)}`, 'Eight; one plus one was refused.'],
    });
    await r.line('Four plus four and one plus one');
    const screen = await r.waitFor(
      /\/approve <call_id> runs one, \/reject <call_id> \[reason…\] refuses one\nyou> $/m,
    );
    const [first, second] = [...screen.matchAll(/call (run_\S+:\d+:\d+) · hash/g)].map((m) => m[1]).slice(-2);
    await r.line('/approve');
    await r.waitFor(/you> \/approve\n2 calls wait: name one of \S+, \S+\nyou> $/m);
    await r.line(`/reject ${second} not that one`);
    await r.waitFor(
      /\? add\(\{"a":4,"b":4\}\) waits for approval\n {2}call \S+ · hash [0-9a-f]{64}\n\[awaiting_approval\] run \S+\n\/approve runs it, /,
    );
    expect(screen).toContain(`call ${first} · hash`);
    await r.line('/approve');
    await r.waitFor(/Eight; one plus one was refused\.\nyou> $/m);
    expect(adds().slice(before + 1)).toEqual([{ a: 4, b: 4 }]);
    expect(JSON.stringify(stack.llm.requests().at(-1)?.body)).toContain('not that one');
  });

  it('rejects the plan the last run holds with /reject reason…, the reason on record with the decision', async () => {
    const r = await repl(['--no-history', '--agent', 'approver']);
    stack.llm.setScript({
      replies: ['{"steps":[{"description":"add them","tool":"add","params":{"a":1,"b":1}}]}'],
    });
    await r.line('One plus one, once approved');
    await r.waitFor(/awaiting_approval[\s\S]*you> $/m);
    await r.line('/reject not this one');
    const screen = await r.waitFor(/you> \/reject not this one\n\S+: rejected\nyou> $/m);
    const runId = /(\S+): rejected\n/.exec(screen)![1];
    const res = await fetch(`${stack.base}/api/v1/runs/${runId}`, {
      headers: { authorization: `Bearer ${ADMIN_KEY}` },
    });
    expect(((await res.json()) as RunView).decisions).toEqual([
      expect.objectContaining({ kind: 'plan', action: 'reject', reason: 'not this one' }),
    ]);
  });

  it('answers every piped line in order on one session before the end of the input ends it', async () => {
    stack.llm.setScript({ replies: ['Hello Ada.', 'You are Ada.'] });
    const piped = await runCli(['repl', '--no-history'], env, 'I am Ada.\nWho am I?\n');
    expect(piped.code).toBe(0);
    expect(piped.stdout).toMatch(/Hello Ada\.\n(you> )?You are Ada\.\n(you> )?bye\n$/);
  });

  it('quits on Ctrl-C twice at an empty prompt, and on Ctrl-D', async () => {
    const twice = await repl(['--no-history']);
    await twice.keys('C-c');
    await twice.waitFor(/\(Ctrl-C again or Ctrl-D to quit\)/);
    await twice.keys('C-c');
    await twice.waitFor(/bye\nexit=0/);
    await twice.stop();

    const eof = await repl(['--no-history']);
    await eof.keys('C-d');
    await eof.waitFor(/bye\nexit=0/);
  });
});
