import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Command } from 'commander';
import { AgentChassisClient } from '@app/client';
import { CliContext } from './context';
import { runCli } from './program';

/** The gateway's answer to every request, for the commands that call it. */
let answer: (url: string) => Response = () => {
  throw new Error('no gateway in this test');
};

/** The CLI's context, its client talking to `answer` rather than a socket (none in this tier). */
class TestContext extends CliContext {
  override client(_command: Command): AgentChassisClient {
    return new AgentChassisClient({
      baseUrl: 'http://gateway.test',
      fetch: async (input) => answer(String(input)),
    });
  }
}

/** The CLI with captured output. */
async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const ctx = new TestContext(
    {
      out: { write: (text: string) => out.push(text) },
      err: { write: (text: string) => err.push(text) },
      input: new PassThrough(),
    },
    { AC_URL: 'http://127.0.0.1:9', AC_API_KEY: 'ac_test' },
  );
  const code = await runCli(ctx, argv);
  return { code, out: out.join(''), err: err.join('') };
}

describe('the agentchassis command line', () => {
  it.each([[['--help']], [['keys', 'create', '--help']], [['runs', 'list', '-h']], [['health', '--help']]])(
    'answers %j with its help on stdout, exit 0',
    async (argv) => {
      const { code, out } = await cli(...argv);
      expect(code).toBe(0);
      expect(out).toMatch(/^Usage: agentchassis/);
    },
  );

  it.each([
    [['keys', 'create', '-n', '--help', '--scopes', 'chat'], "'--help' looks like an option"],
    [['keys', 'create', '--name=--json', '--scopes', 'chat'], "'--json' looks like an option"],
    [['runs', 'show', '--', '--help'], "'--help' looks like an option"],
    [['runs', 'list', '--bogus'], "unknown option '--bogus'"],
  ])('refuses %j before calling the gateway', async (argv, message) => {
    const { code, err } = await cli(...argv);
    expect(code).toBe(1);
    expect(err.split('\n')[0]).toContain(message);
  });

  it('takes a message that starts with a dash as a message', async () => {
    const { err } = await cli('run', '-m', '-5 degrees: what now?');
    expect(err).not.toContain('looks like an option');
  });

  it('health lists every part, the model included', async () => {
    const report = {
      status: 'degraded',
      services: { gateway: 'ok', 'agent-executor': 'ok' },
      nats: 'ok',
      database: 'ok',
      redis: 'ok',
      llm: 'not configured',
    };
    answer = () => Response.json(report, { status: 503 });
    const { out } = await cli('health');
    expect(out).toMatch(/^ {2}llm +not configured$/m);
    expect(out).toMatch(/^ {2}redis +ok$/m);
  });
});
