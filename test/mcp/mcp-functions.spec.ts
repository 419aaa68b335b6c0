import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Bus } from '@app/bus';
import { Events, type FunctionCallEvent, type McpServerList } from '@app/contracts';
import { expectEventually, freePort } from '@app/testing';
import {
  api,
  childrenOf,
  type McpStack,
  startHttpServer,
  startMcpStack,
  stopProcess,
  SESSION_HTTP,
} from './mcp-stack';
import { testServers } from './test-servers';

const TOKEN = 'tok-mcp-child-0123456789';
const PLATFORM_SECRET = 'sk-platform-secret-0123456789';
const HEADER_SECRET = 'hdr-secret-9f8e7d6c5b4a';

describe('MCP servers as functions (gateway, executor, two runners; real MCP servers from npm)', () => {
  const folder = mkdtempSync(join(tmpdir(), 'ac-mcp-fs-'));
  const eventLog = join(folder, '..', `${folder.split('/').pop()}-events.log`);
  let httpPort = 0;
  let httpServer: ChildProcess;
  let sessionPort = 0;
  let sessionServer: ChildProcess;
  let stack: McpStack;
  const expectServed = <T extends { status: number }>(reply: T): T => {
    expect(reply.status).toBe(200);
    return reply;
  };
  let bus: Bus;
  const records: FunctionCallEvent[] = [];
  const invoke = (name: string, params: Record<string, unknown>, timeout_ms?: number) =>
    api(stack.base, 'POST', `/api/v1/functions/${name}/invoke`, { params, timeout_ms });

  beforeAll(async () => {
    writeFileSync(join(folder, 'notes.txt'), 'the backups run at nine');
    httpPort = await freePort();
    httpServer = await startHttpServer(httpPort);
    sessionPort = await freePort();
    sessionServer = await startHttpServer(sessionPort, [SESSION_HTTP]);
    stack = await startMcpStack({
      runners: 2,
      env: { LLM_API_KEY: PLATFORM_SECRET, AGENT_CATALOG_TTL: '1h' },
      servers: testServers({
        folder,
        eventLog,
        httpPort,
        sessionPort,
        token: TOKEN,
        headerSecret: HEADER_SECRET,
      }),
    });
    // a server that is slow to start on a busy machine connects on a later, background attempt
    await expectEventually(
      () => {
        for (const runner of stack.runners)
          for (const server of ['everything', 'fs', 'tiny', 'web', 'sessions'])
            expect(runner.output()).toContain(`MCP server '${server}' connected`);
      },
      { timeoutMs: 30_000 },
    );
    bus = await Bus.connect({ url: stack.nats.url, name: 'mcp-spec' });
    // Listens beside the executor's recorder, not in its queue group: a member of the group would
    // get only some of the batches (the executor records the rest), and which runner's is chance.
    bus.subscribe(Events.fnCallsRecorded, (batch) => records.push(...batch.calls));
    await bus.flush();
  }, 90_000);
  afterAll(async () => {
    await bus?.drain();
    await stack?.close();
    if (httpServer) await stopProcess(httpServer);
    if (sessionServer) await stopProcess(sessionServer);
  });

  it('lists every tool as <prefix>_<tool>, from its inputSchema, with collisions renamed and filters applied', async () => {
    const { status, body } = await api(stack.base, 'GET', '/api/v1/functions');
    expect(status).toBe(200);
    const byName = new Map((body.functions ?? []).map((f) => [f.name, f]));
    for (const name of ['everything_get_sum', 'everything_echo', 'everything_echo_2', 'everything_sleep'])
      expect(byName.has(name), name).toBe(true);
    for (const name of ['files_read_text_file', 'files_write_file', 'web_echo', 'web_get_sum'])
      expect(byName.has(name), name).toBe(true);
    expect(byName.get('everything_get_sum')).toMatchObject({
      provider: 'mcp',
      timeout_ms: 3_000,
      parameters: { properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
    });
    expect(byName.get('everything_echo_2')).toMatchObject({
      description: 'Echoes the text back, in capitals.',
    });
    expect([...byName.keys()].filter((n) => n.startsWith('web_')).sort()).toEqual([
      'web_echo',
      'web_get_sum',
    ]);
    expect([...byName.keys()].some((n) => n.startsWith('blocked_'))).toBe(false);
    const log = stack.runners[0].output();
    expect(log).toContain('everything_echo_2 (tiny/echo): the name everything_echo was already taken');
    expect(log).toMatch(
      /MCP server 'blocked' could not connect: .*SSRF guard: .*127\.0\.0\.1 is a loopback address/,
    );
  });

  it('reports each mounted server’s state and tools at GET /api/v1/mcp/servers, its reasons without secrets', async () => {
    const { status, body } = await api(stack.base, 'GET', '/api/v1/mcp/servers');
    expect(status).toBe(200);
    const servers = new Map(
      (body as unknown as McpServerList).servers.map((server) => [server.name, server]),
    );
    expect(servers.get('everything')).toMatchObject({ state: 'ready', tools: expect.any(Number) });
    expect(servers.get('everything')!.tools).toBeGreaterThan(3);
    expect(servers.get('web')).toMatchObject({ state: 'ready', tools: 2 });
    expect(servers.get('blocked')).toMatchObject({ state: 'down', tools: 0 });
    expect(servers.get('blocked')!.reason).toMatch(/SSRF guard/);
    expect(JSON.stringify(body)).not.toContain(HEADER_SECRET);
  });

  it("never logs an http server's header values", () => {
    for (const service of [...stack.runners, stack.gateway, stack.executor])
      expect(service.output()).not.toContain(HEADER_SECRET);
  });

  it('calls tools through POST /functions/:name/invoke: text, structured content, images', async () => {
    const sum = await invoke('everything_get_sum', { a: 2, b: 3 });
    expect(sum.body).toMatchObject({ status: 'success', result: { message: expect.stringContaining('5') } });
    const weather = await invoke('everything_get_structured_content', { location: 'Chicago' });
    expect(weather.body.result).toEqual({
      data: { temperature: 36, conditions: 'Light rain / drizzle', humidity: 82 },
    });
    const image = await invoke('everything_get_tiny_image', {});
    expect(image.body.result?.message).toMatch(/\[image image\/png, \d+ bytes\]/);
    expect((await invoke('everything_echo_2', { text: 'quiet' })).body.result).toEqual({ message: 'QUIET' });
    expect((await invoke('web_get_sum', { a: 1, b: 1 })).body.result?.message).toContain('2');
  });

  it('validates params against the inputSchema before the server sees them', async () => {
    const { status, body } = await invoke('everything_get_sum', { a: 'two', b: 3 });
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ code: 'invalid_params', details: [{ field: 'a' }] });
  });

  it("feeds a tool's isError back as a function error", async () => {
    const { status, body } = await invoke('files_read_text_file', { path: '/etc/hostname' });
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: 'error', error: { code: 'function_error' } });
    expect(body.error?.message).toMatch(/access denied|outside allowed/i);
  });

  it('gives a stdio server only its configured environment and PATH, no platform secret', async () => {
    const { body } = await invoke('everything_get_env', {});
    const env = JSON.parse(body.result?.message ?? '') as Record<string, string>;
    expect(Object.keys(env).sort()).toEqual(['MCP_TEST_TOKEN', 'PATH']);
    expect(env.MCP_TEST_TOKEN).toBe(TOKEN);
    expect(JSON.stringify(env)).not.toContain(PLATFORM_SECRET);
  });

  it('runs a stdio server with network: false in an empty network namespace, where the host allows one', async () => {
    expect((await invoke('everything_reach', { port: httpPort })).body.result).toEqual({
      message: 'connected',
    });
    const log = stack.runners[0].output();
    if (log.includes('sandbox: each sandbox has an empty network namespace')) {
      const isolated = await expectEventually(() =>
        invoke('isolated_reach', { port: httpPort }).then(expectServed),
      );
      expect(isolated.body.result?.message).toMatch(/^error: E[A-Z]+$/);
    } else {
      expect(log).toContain("MCP server 'isolated' could not connect");
      expect(log).toContain(
        'configured with network: false, but this host cannot cut a process off the network',
      );
    }
  });

  it('times a slow tool out with the platform error and cancels it on the server', async () => {
    const { status, body } = await invoke('everything_sleep', { ms: 20_000 }, 500);
    // The call reached the function: its outcome (here a timeout) is a 200 like any function's.
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: 'error', error: { code: 'timeout' } });
    await expectEventually(() => {
      expect(existsSync(eventLog) && readFileSync(eventLog, 'utf8')).toMatch(/^cancelled \d+/m);
    });
  });

  it("caps a call at the server's own timeout even when the caller allows more", async () => {
    const { status, body } = await invoke('everything_sleep', { ms: 20_000 }, 10_000);
    expect(status).toBe(200);
    expect(body.status).toBe('error');
    expect(body.error).toMatchObject({
      code: 'timeout',
      message: expect.stringContaining("MCP server 'tiny'"),
    });
    await expectEventually(() => {
      expect(readFileSync(eventLog, 'utf8').match(/^cancelled \d+/gm)).toHaveLength(2);
    });
  });

  it('lets the scripted model call an MCP tool in a chat turn', async () => {
    const path = join(folder, 'notes.txt');
    stack.llm.setScript({
      replies: [`<call name="files_read_text_file"><p>path: ${path}</p></call>`, 'At nine.'],
    });
    const { status, body } = await api(stack.base, 'POST', '/api/v1/chat', { message: 'When?' });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      reply: 'At nine.',
      function_calls: [
        { name: 'files_read_text_file', status: 'success', result: { message: 'the backups run at nine' } },
      ],
    });
  });

  it('shares calls between the two runners, each holding its own connection', async () => {
    const replies = await Promise.all(
      Array.from({ length: 24 }, (_, i) => invoke('everything_get_sum', { a: i, b: 1 })),
    );
    expect(replies.every((r) => r.body.status === 'success')).toBe(true);
    await expectEventually(() => {
      const instances = new Set(
        records.filter((r) => r.name === 'everything_get_sum').map((r) => r.instance),
      );
      expect(instances.size).toBe(2);
    });
  });

  it('announces a list_changed so the executor sees the new tool at once (its catalogue TTL is 1h)', async () => {
    expect((await invoke('everything_add_tool', {})).body.result).toEqual({ message: 'added' });
    await expectEventually(async () => {
      expect((await api(stack.base, 'GET', '/api/v1/functions/everything_extra')).status).toBe(200);
    });
    stack.llm.setScript({ replies: ['<call name="everything_extra"></call>', 'Done.'] });
    const { body } = await api(stack.base, 'POST', '/api/v1/chat', { message: 'Use the new tool' });
    expect(body.function_calls).toEqual([
      expect.objectContaining({
        name: 'everything_extra',
        status: 'success',
        result: { message: 'extra here' },
      }),
    ]);
  });

  it('re-initialises a stdio server that died: fast unavailable errors, then success within 5 s', async () => {
    const pids = stack.runners.flatMap((r) => childrenOf(r, 'server-everything'));
    expect(pids).toHaveLength(2);
    for (const pid of pids) process.kill(pid, 'SIGKILL');
    const during = await invoke('everything_get_sum', { a: 1, b: 2 });
    expect(during.status).toBe(503);
    expect(during.body.error).toMatchObject({
      code: 'unavailable',
      message: expect.stringContaining("'everything'"),
    });
    await expectEventually(
      async () => expect((await invoke('everything_get_sum', { a: 1, b: 2 })).body.status).toBe('success'),
      { timeoutMs: 5_000 },
    );
  });

  it('opens a new session when a restarted http server no longer knows the old one', async () => {
    expect((await invoke('web_get_sum', { a: 2, b: 2 })).body.status).toBe('success');
    await stopProcess(httpServer);
    httpServer = await startHttpServer(httpPort);
    const after = await invoke('web_get_sum', { a: 2, b: 2 });
    expect(after.body).toMatchObject({
      status: 'success',
      result: { message: expect.stringContaining('4') },
    });
    const logs = stack.runners.map((r) => r.output()).join('\n');
    expect(logs).toContain("MCP server 'web' lost: the server forgot the session; reconnecting");
  });

  it('opens a new session when a restarted server answers 404 Session not found', async () => {
    expect((await invoke('sessions_double', { n: 4 })).body.result).toEqual({ message: '8' });
    await stopProcess(sessionServer);
    sessionServer = await startHttpServer(sessionPort, [SESSION_HTTP]);
    expect((await invoke('sessions_double', { n: 5 })).body).toMatchObject({
      status: 'success',
      result: { message: '10' },
    });
    const logs = stack.runners.map((r) => r.output()).join('\n');
    expect(logs).toContain("MCP server 'sessions' lost: the server forgot the session; reconnecting");
  });
});
