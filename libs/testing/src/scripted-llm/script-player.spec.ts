import { describe, expect, it } from 'vitest';
import { ScriptError } from './script';
import { NO_REPLY_TEXT, ScriptPlayer, type Turn } from './script-player';

function turn(overrides: Partial<Turn> = {}): Turn {
  return {
    conversation: 'c1',
    index: 0,
    lastContent: 'hi',
    lastUserContent: 'hi',
    apiKey: 'k',
    ...overrides,
  };
}

describe('ScriptPlayer', () => {
  it('answers turn i with replies[i], whatever order the turns arrive in', () => {
    const player = new ScriptPlayer({ replies: ['first', 'second', 'third'] });
    expect(player.next(turn({ index: 2 })).text).toBe('third');
    expect(player.next(turn({ index: 0 })).text).toBe('first');
    expect(player.next(turn({ index: 1, conversation: 'other' })).text).toBe('second');
  });

  it('moves past an error reply on the retry of the same turn, per conversation', () => {
    const player = new ScriptPlayer({ replies: [{ status: 429 }, 'after the retry', 'next turn'] });
    expect(player.next(turn()).status).toBe(429);
    expect(player.next(turn()).text).toBe('after the retry');
    expect(player.next(turn({ index: 1 })).text).toBe('next turn');
    expect(player.next(turn({ conversation: 'c2' })).status).toBe(429);
  });

  it('tries rules before replies and honours times', () => {
    const player = new ScriptPlayer({
      replies: ['scripted'],
      rules: [{ match: '/weather in (\\w+)/i', reply: 'sunny', times: 1 }],
    });
    expect(player.next(turn({ lastContent: 'What is the WEATHER in Oslo?' })).text).toBe('sunny');
    expect(player.next(turn({ lastContent: 'What is the weather in Oslo?' })).text).toBe('scripted');
  });

  it('matches a plain-string rule as a substring', () => {
    const player = new ScriptPlayer({ rules: [{ match: 'ping', reply: 'pong' }] });
    expect(player.next(turn({ lastContent: 'say ping please' })).text).toBe('pong');
    expect(player.next(turn({ lastContent: 'Ping' })).text).toBe(NO_REPLY_TEXT);
  });

  it('fills {{last}} and {{last_user}} in text and in tool-call arguments', () => {
    const player = new ScriptPlayer({
      replies: [
        {
          text: 'you said {{last_user}}, tool said {{last}}',
          toolCalls: [{ name: 'echo', arguments: { q: '{{last_user}}' } }],
        },
      ],
    });
    const planned = player.next(turn({ lastContent: '{"rows":2}', lastUserContent: 'count rows' }));
    expect(planned.text).toBe('you said count rows, tool said {"rows":2}');
    expect(planned.toolCalls).toEqual([{ name: 'echo', arguments: { q: 'count rows' } }]);
    expect(planned.finishReason).toBe('tool_calls');
  });

  it('falls back to `fallback`, then to a clear no-reply text', () => {
    expect(new ScriptPlayer({ fallback: 'default' }).next(turn({ index: 5 })).text).toBe('default');
    expect(new ScriptPlayer({}).next(turn()).text).toBe(NO_REPLY_TEXT);
  });

  it('takes latency from the reply, else the script, else the server default', () => {
    const player = new ScriptPlayer({ latencyMs: 20, replies: ['a', { text: 'b', latencyMs: 5 }] }, 1_000);
    expect(player.next(turn()).latencyMs).toBe(20);
    expect(player.next(turn({ index: 1 })).latencyMs).toBe(5);
    expect(new ScriptPlayer({}, 7).next(turn()).latencyMs).toBe(7);
  });

  it('refuses a malformed script with a message naming the field', () => {
    const player = new ScriptPlayer();
    expect(() => player.load({ replies: [{ toolCalls: [{ name: 'x' }] }] } as never)).toThrow(ScriptError);
    expect(() => player.load({ rules: [{ match: '/(/', reply: 'x' }] })).toThrow(
      /rules\[0\]|regular expression/,
    );
    expect(() => player.load({ latencyMs: -1 })).toThrow(/latencyMs/);
  });
});
