import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectEventually, installPacked, packPackage, REPO_ROOT, typeCheckConsumer } from '@app/testing';
import { ADMIN_KEY, addCall, type ClientStack, startClientStack } from './client-stack';

const exec = promisify(execFile);
const PACKAGE_DIR = join(REPO_ROOT, 'libs/client');
/** Its engines say `>=20`: the machine's Node 20. */
const OLDEST_MAJOR_NODE = '/usr/bin/node';

const CONSUMER = `
import { AgentChassisClient, AgentChassisError } from '@agentchassis/client';

const client = new AgentChassisClient({ baseUrl: process.env.AC_URL, apiKey: process.env.AC_API_KEY });
const reply = await client.chat({ message: 'Two plus three?' });
const events = [];
for await (const event of client.chatStream({ message: 'And again?', session_id: reply.session_id })) events.push(event.type);
const invoked = await client.functions.invoke('send_message', { params: { to: 'ops', message: 'from the package' } });
const error = await client.sessions.get('ses_gone').catch((e) => ({ typed: e instanceof AgentChassisError, code: e.code, status: e.status }));
console.log(JSON.stringify({ reply, events, invoked, error }));
`;

// Type-checked against the packed declarations alone: no @types, no monorepo paths, no skipLibCheck.
const TYPED_CONSUMER = `
import { AgentChassisClient, AgentChassisError, type AgentRunReply, type ChatEvent } from '@agentchassis/client';

const client = new AgentChassisClient({ baseUrl: 'http://127.0.0.1:3000' });
export async function turn(): Promise<string[]> {
  const reply: AgentRunReply = await client.chat({ message: 'hi', agent: 'default' });
  const names: string[] = [reply.finish_reason];
  for await (const event of client.chatStream({ message: 'hi' }) as AsyncIterable<ChatEvent>) {
    if (event.type === 'tool_call') names.push(event.data.name);
    if (event.type === 'error') names.push(event.data.error.code);
  }
  const err = new AgentChassisError({ code: 'rate_limited', message: 'slow down', status: 429, retryAfter: 3 });
  return [...names, String(err.retryAfter)];
}
`;

describe('the packed @agentchassis/client installed in a project outside the monorepo', () => {
  let stack: ClientStack;
  const project = mkdtempSync(join(tmpdir(), 'ac-client-consumer-'));

  beforeAll(async () => {
    stack = await startClientStack();
  });
  afterAll(() => stack?.close());

  it(
    'installs from the tarball alone, type-checks, and does a chat turn and a function call on Node 24 and 20',
    { timeout: 120_000 },
    async () => {
      const packed = await packPackage(PACKAGE_DIR, project);
      expect(packed.files).toEqual(
        expect.arrayContaining([
          'package.json',
          'dist/client/src/index.js',
          'dist/client/src/index.d.ts',
          'dist/contracts/src/agent.d.ts',
        ]),
      );
      expect(packed.files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
      expect(existsSync(join(PACKAGE_DIR, 'dist'))).toBe(false);

      // Offline: the tarball must need nothing from a registry.
      const app = await installPacked(PACKAGE_DIR, packed.tarball, project);
      await typeCheckConsumer(app, TYPED_CONSUMER);

      writeFileSync(join(app, 'consumer.mjs'), CONSUMER);
      // On the project's Node and on the oldest major its engines take (the machine's Node 20).
      const oldest = await exec(OLDEST_MAJOR_NODE, ['--version']);
      expect(oldest.stdout).toMatch(/^v20\./);
      for (const node of [process.execPath, OLDEST_MAJOR_NODE]) await consume(node, app);
      await expectEventually(() =>
        expect(stack.runner.output()).toMatch(/message for ops: from the package/),
      );
    },
  );

  async function consume(node: string, app: string) {
    stack.llm.setScript({ replies: [addCall(2, 3), 'Five.', 'Still five.'] });
    const run = await exec(node, ['consumer.mjs'], {
      cwd: app,
      env: { PATH: process.env.PATH ?? '', AC_URL: stack.base, AC_API_KEY: ADMIN_KEY },
    });
    const result = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(result, node).toMatchObject({
      reply: { reply: 'Five.', finish_reason: 'final', function_calls: [{ name: 'add', status: 'success' }] },
      events: ['run_start', 'delta', 'run_end'],
      invoked: { status: 'success' },
      error: { typed: true, code: 'not_found', status: 404 },
    });
  }
});
