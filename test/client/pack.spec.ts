import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectEventually, REPO_ROOT } from '@app/testing';
import { ADMIN_KEY, addCall, type ClientStack, startClientStack } from './client-stack';

const exec = promisify(execFile);
const PACKAGE_DIR = join(REPO_ROOT, 'libs/client');

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

  it('installs from the tarball alone, type-checks, and does a chat turn and a function call', async () => {
    const { stdout } = await exec('npm', ['pack', '--json', '--pack-destination', project], {
      cwd: PACKAGE_DIR,
    });
    const [packed] = JSON.parse(stdout.slice(stdout.indexOf('['))) as {
      filename: string;
      files: { path: string }[];
    }[];
    expect(packed.files.map((f) => f.path)).toEqual(
      expect.arrayContaining([
        'package.json',
        'dist/client/src/index.js',
        'dist/client/src/index.d.ts',
        'dist/contracts/src/agent.d.ts',
      ]),
    );
    expect(packed.files.filter((f) => f.path.endsWith('.ts') && !f.path.endsWith('.d.ts'))).toEqual([]);
    expect(existsSync(join(PACKAGE_DIR, 'dist'))).toBe(false);

    mkdirSync(join(project, 'app'));
    const app = join(project, 'app');
    writeFileSync(
      join(app, 'package.json'),
      JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
    );
    // --offline: the tarball must need nothing from a registry.
    await exec('npm', ['install', '--offline', '--no-audit', '--no-fund', join(project, packed.filename)], {
      cwd: app,
    });

    writeFileSync(join(app, 'check.ts'), TYPED_CONSUMER);
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          module: 'nodenext',
          target: 'es2023',
          lib: ['es2023', 'dom', 'dom.asynciterable'],
          types: [],
          skipLibCheck: false,
        },
        files: ['check.ts'],
      }),
    );
    await exec(process.execPath, [join(REPO_ROOT, 'node_modules/typescript/bin/tsc'), '-p', app], {
      cwd: app,
    }).catch((err: { stdout?: string }) => {
      throw new Error(`the packed declarations do not type-check:\n${err.stdout}`);
    });

    stack.llm.setScript({ replies: [addCall(2, 3), 'Five.', 'Still five.'] });
    writeFileSync(join(app, 'consumer.mjs'), CONSUMER);
    const run = await exec(process.execPath, ['consumer.mjs'], {
      cwd: app,
      env: { PATH: process.env.PATH ?? '', AC_URL: stack.base, AC_API_KEY: ADMIN_KEY },
    });
    const result = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(result).toMatchObject({
      reply: { reply: 'Five.', finish_reason: 'final', function_calls: [{ name: 'add', status: 'success' }] },
      events: ['run_start', 'delta', 'run_end'],
      invoked: { status: 'success' },
      error: { typed: true, code: 'not_found', status: 404 },
    });
    await expectEventually(() => expect(stack.runner.output()).toMatch(/message for ops: from the package/));
  });
});
