import { describe, expect, it } from 'vitest';
import type { AgentRunReply, ChatEvent } from '@app/client';
import { ChatPrinter } from './chat-printer';
import { createStyle } from './style';

const reply = (text: string, finish_reason: AgentRunReply['finish_reason'] = 'final'): ChatEvent => ({
  type: 'run_end',
  data: {
    session_id: 'ses_1',
    run_id: 'run_1',
    reply: text,
    function_calls: [],
    finish_reason,
    usage: { prompt_tokens: 1, completion_tokens: 1 },
  },
});

const turn: ChatEvent[] = [
  {
    type: 'run_start',
    data: { run_id: 'run_1', session_id: 'ses_1', agent: 'default', mode: 'react', protocol: 'xml-toon' },
  },
  { type: 'delta', data: { step: 1, text: 'Add' } },
  { type: 'delta', data: { step: 1, text: 'ing.' } },
  { type: 'thought', data: { step: 1, text: 'Adding.' } },
  { type: 'tool_call', data: { step: 1, index: 0, name: 'add', args: { a: 2, b: 3 } } },
  {
    type: 'tool_result',
    data: { step: 1, index: 0, name: 'add', status: 'success', result: { data: { sum: 5 } }, elapsed_ms: 3 },
  },
  { type: 'delta', data: { step: 2, text: 'Fi' } },
  { type: 'delta', data: { step: 2, text: 've.' } },
  reply('Five.'),
];

function printed(events: ChatEvent[], tty: boolean, noColor?: string) {
  const out: string[] = [];
  const err: string[] = [];
  const printer = new ChatPrinter(
    { write: (t: string) => out.push(t), isTTY: tty, columns: 80 },
    { write: (t: string) => err.push(t) },
    createStyle(tty, noColor),
  );
  for (const event of events) printer.print(event);
  return { out: out.join(''), err: err.join(''), printer };
}

describe('ChatPrinter', () => {
  it('prints whole events only when the output is not a terminal, without colour', () => {
    const { out, printer } = printed(turn, false);
    expect(out).toBe('· Adding.\n→ add({"a":2,"b":3})\n  ✓ add 3 ms {"data":{"sum":5}}\nFive.\n');
    expect(printer).toMatchObject({ runId: 'run_1', sessionId: 'ses_1', reply: { finish_reason: 'final' } });
  });

  it('on a terminal streams text, then rewrites a step that turned out to be a thought, dimmed', () => {
    const { out } = printed(turn, true);
    expect(out).toBe(
      'Adding.' +
        '\r\x1b[J' +
        '\x1b[2m· Adding.\x1b[22m\n' +
        '\x1b[36m→\x1b[39m add\x1b[2m({"a":2,"b":3})\x1b[22m\n' +
        '  \x1b[32m✓\x1b[39m add \x1b[2m3 ms\x1b[22m \x1b[2m{"data":{"sum":5}}\x1b[22m\n' +
        'Five.\n',
    );
  });

  it('moves up over every row a wrapped streamed text took before rewriting it', () => {
    const long = 'x'.repeat(170);
    const { out } = printed(
      [
        { type: 'delta', data: { step: 1, text: `${long}\nmore` } },
        { type: 'thought', data: { step: 1, text: 't' } },
      ],
      true,
    );
    expect(out).toContain(`${long}\nmore\r\x1b[3A\x1b[J`);
  });

  it('never colours with NO_COLOR, and names a finish that is not final; errors go to stderr', () => {
    const { out, err } = printed(
      [
        reply('Stopped.', 'max_steps'),
        { type: 'error', data: { error: { code: 'timeout', message: 'run timed out' } } },
      ],
      true,
      '1',
    );
    expect(out).toBe('Stopped.\n[max_steps] run run_1\n');
    expect(err).toBe('error: run timed out (timeout)\n');
  });

  it('prints each held call with its arguments uncut, call id and hash, and the calls left a reply names', () => {
    const held = (index: number, args: Record<string, unknown>) => ({
      call_id: `run_1:1:${index}`,
      function: 'transfer',
      arguments: args,
      hash: String(index).repeat(64),
      asked_at: '2026-11-26T10:00:00.000Z',
      expires_at: index ? '2026-11-26T10:15:00.000Z' : null,
    });
    const note = 'x'.repeat(120);
    const first = held(0, { amount: 5, note });
    const second = held(1, { amount: 7 });
    const waiting = reply('Waiting for approval.', 'awaiting_approval');
    const { out } = printed(
      [
        { type: 'approval_required', data: { run_id: 'run_1', ...first } },
        { ...waiting, data: { ...waiting.data, approvals: [first, second] } } as ChatEvent,
      ],
      false,
    );
    expect(out).toBe(
      `? transfer({"amount":5,"note":"${note}"}) waits for approval\n` +
        `  call run_1:1:0 · hash ${'0'.repeat(64)}\n` +
        'Waiting for approval.\n' +
        '? transfer({"amount":7}) waits for approval\n' +
        `  call run_1:1:1 · hash ${'1'.repeat(64)} · expires 2026-11-26T10:15:00.000Z\n` +
        '[awaiting_approval] run run_1\n',
    );
  });

  it('tells of a message added to the running run and of a run taken over by another executor', () => {
    const { out } = printed(
      [
        { type: 'user_message', data: { step: 2, text: 'use metric units' } },
        { type: 'run_resumed', data: { run_id: 'run_1', takeovers: 1, step: 3 } },
      ],
      false,
    );
    expect(out).toBe(
      '+ your message, read at step 2: use metric units\n· resumed on another executor at step 3\n',
    );
  });
});
