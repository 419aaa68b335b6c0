import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { AgentChassisClient } from '@app/client';
import { CliContext } from '../context';
import { ReplSession } from './repl-session';

/** A REPL whose gateway knows one agent, `ops`; what it was asked and what it printed. */
function repl() {
  const out: string[] = [];
  const asked: string[] = [];
  const ctx = new CliContext(
    {
      out: { write: (text: string) => out.push(text) },
      err: { write: (text: string) => out.push(text) },
      input: new PassThrough(),
    },
    { NO_COLOR: '1' },
  );
  const client = new AgentChassisClient({
    baseUrl: 'http://gateway.test',
    fetch: async (input) => {
      const path = new URL(String(input)).pathname;
      asked.push(path);
      if (path === '/api/v1/agents/ops') return Response.json({ name: 'ops' });
      return Response.json(
        { error: { code: 'not_found', message: 'no agent profile nosuchagent' } },
        { status: 404 },
      );
    },
  });
  return { session: new ReplSession(ctx, client, {}), out, asked };
}

describe('the REPL /agent command', () => {
  it('refuses an unknown agent at once and keeps the one in use', async () => {
    const { session, out, asked } = repl();
    await session.handle('/agent nosuchagent');
    expect(asked).toEqual(['/api/v1/agents/nosuchagent']);
    expect(out.join('')).toMatch(/error: no agent profile nosuchagent \(not_found\)/);
    expect(session.describe()).toBe('agent default, new session');
  });

  it('switches to an agent that exists', async () => {
    const { session, out } = repl();
    await session.handle('/agent ops');
    expect(out.join('')).toContain('now agent ops, new session');
    expect(session.describe()).toBe('agent ops, new session');
  });
});
