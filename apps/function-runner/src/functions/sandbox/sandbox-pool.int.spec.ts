import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError, TimeoutError } from '@app/contracts';
import type { FunctionContext } from '@app/functions';
import { Logger } from '@app/observability';
import { type NetworkIsolation, probeNetworkIsolation } from './network-isolation';
import { SandboxPool } from './sandbox-pool';
import { sandboxScript } from './sandbox-process';

const quiet = new Logger({ service: 'test', level: 'error', format: 'json', write: () => undefined });

const PLUGINS: Record<string, string> = {
  'greet.ts': `
    interface Params { who: string }
    export default {
      name: 'greet', description: 'says hello', parameters: { type: 'object', properties: { who: { type: 'string' } }, required: ['who'] },
      async execute(params: Params, ctx: { caller: unknown }) { return { message: 'hello ' + params.who, data: { caller: ctx.caller } }; },
    };`,
  'peek.mjs': `
    import { readFileSync } from 'node:fs';
    import { execSync } from 'node:child_process';
    import net from 'node:net';
    const attempt = (fn) => { try { fn(); return 'allowed'; } catch (e) { return e.code ?? e.message; } };
    const connect = () => new Promise((resolve) => {
      const socket = net.connect(4222, '127.0.0.1');
      socket.on('connect', () => { socket.destroy(); resolve('connected'); });
      socket.on('error', (e) => resolve(e.code));
    });
    export default {
      name: 'peek', description: 'tries what it must not', parameters: { type: 'object', properties: {} },
      async execute() {
        return {
          env: { ...process.env },
          passwd: attempt(() => readFileSync('/etc/passwd')),
          repo: attempt(() => readFileSync(${JSON.stringify(join(process.cwd(), 'package.json'))})),
          spawn: attempt(() => execSync('id')),
          network: await connect(),
        };
      },
    };`,
  'spin.js': `module.exports = { name: 'spin', description: 'never ends', execute() { for (;;) {} } };`,
  'hog.js': `module.exports = { name: 'hog', description: 'eats memory', execute() { const a = []; for (;;) a.push(new Array(1e5).fill(Math.random())); } };`,
  'crash.js': `module.exports = { name: 'crash', description: 'dies', execute() { setTimeout(() => { throw new Error('boom'); }); return new Promise(() => {}); } };`,
  'fetch.js': `module.exports = { name: 'fetch', description: 'uses ctx.http', async execute(p, ctx) { return ctx.http({ url: p.url }); } };`,
  'broken.js': `module.exports = { name: 'broken' };`,
  'junk.js': `module.exports = { name: 'junk', description: 'sends junk to the runner', execute() {
    process.send(null); process.send('text'); process.send({ type: 'log', level: 'constructor', message: {}, fields: 'x'.repeat(1e5) });
    process.send({ type: 'result', id: -1, value: 'forged' }); process.send({ type: 'http' });
    return { honest: true }; } };`,
};

function context(timeoutMs: number, controller = new AbortController()): FunctionContext {
  const timer = setTimeout(
    () => controller.abort(new TimeoutError(`timed out after ${timeoutMs} ms`)),
    timeoutMs,
  );
  controller.signal.addEventListener('abort', () => clearTimeout(timer));
  return {
    signal: controller.signal,
    deadline: Date.now() + timeoutMs,
    logger: quiet,
    caller: { kind: 'api', principal: 'p' },
  };
}

describe('SandboxPool (real child processes)', () => {
  let dir: string;
  let pool: SandboxPool;
  let isolation: NetworkIsolation;
  const noHttp = async (_request: unknown): Promise<unknown> => {
    throw new Error('no http here');
  };
  const run = (name: string, timeoutMs = 5_000, params: Record<string, unknown> = {}, http = noHttp) =>
    pool.run(join(dir, name), params, context(timeoutMs), http);

  beforeAll(async () => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'ac-sandbox-')));
    for (const [file, text] of Object.entries(PLUGINS)) writeFileSync(join(dir, file), text);
    isolation = await probeNetworkIsolation();
    pool = new SandboxPool({ dir, script: sandboxScript(), memoryMb: 48, size: 1, isolation, logger: quiet });
  });
  afterAll(() => pool.close());

  it('loads a TypeScript plugin and describes it', async () => {
    expect(await pool.describe(join(dir, 'greet.ts'))).toMatchObject({
      name: 'greet',
      description: 'says hello',
    });
  });

  it('runs a call and passes the caller on', async () => {
    expect(await run('greet.ts', 5_000, { who: 'ada' })).toEqual({
      message: 'hello ada',
      data: { caller: { kind: 'api', principal: 'p' } },
    });
  });

  it('gives a plugin no environment, no file outside its folder, no child process and no socket', async () => {
    const seen = (await run('peek.mjs')) as Record<string, unknown>;
    expect(seen.env).toEqual({});
    expect(seen.passwd).toBe('ERR_ACCESS_DENIED');
    expect(seen.repo).toBe('ERR_ACCESS_DENIED');
    expect(seen.spawn).toBe('ERR_ACCESS_DENIED');
    if (isolation.isolated) expect(seen.network).toBe('ENETUNREACH');
  });

  it('kills a function that loops forever at its timeout and keeps serving', async () => {
    const started = Date.now();
    await expect(run('spin.js', 400)).rejects.toThrow(/timed out after 400 ms/);
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(await run('greet.ts', 5_000, { who: 'again' })).toMatchObject({ message: 'hello again' });
  });

  it('kills a running function when its call is cancelled', async () => {
    const controller = new AbortController();
    const pending = pool.run(join(dir, 'spin.js'), {}, context(10_000, controller), noHttp);
    setTimeout(() => controller.abort(new AppError('cancelled', 'cancelled by the caller')), 200);
    await expect(pending).rejects.toMatchObject({ code: 'cancelled' });
    expect(await run('greet.ts', 5_000, { who: 'still here' })).toMatchObject({
      message: 'hello still here',
    });
  });

  it('reports running out of memory as the function’s error and survives it', async () => {
    await expect(run('hog.js', 20_000)).rejects.toThrow(/ran out of memory \(limit 48 MB\)/);
    expect(await run('greet.ts', 5_000, { who: 'after oom' })).toMatchObject({ message: 'hello after oom' });
  });

  it('reports a crash of the function’s process as its error and survives it', async () => {
    await expect(run('crash.js')).rejects.toMatchObject({ code: 'function_error', message: /boom/ });
    expect(await run('greet.ts', 5_000, { who: 'after crash' })).toMatchObject({
      message: 'hello after crash',
    });
  });

  it('reaches the network only through the runner’s http bridge', async () => {
    const http = async (request: unknown) => ({ via: 'runner', request });
    expect(await run('fetch.js', 5_000, { url: 'https://example.com/' }, http)).toEqual({
      via: 'runner',
      request: { url: 'https://example.com/' },
    });
    await expect(run('fetch.js', 5_000, { url: 'http://127.0.0.1/' })).rejects.toThrow(/no http here/);
  });

  it('shrugs off whatever junk a plugin sends over the IPC channel', async () => {
    expect(await run('junk.js')).toEqual({ honest: true });
    expect(await run('greet.ts', 5_000, { who: 'unharmed' })).toMatchObject({ message: 'hello unharmed' });
  });

  it('refuses a module without an execute function, with a message for its author', async () => {
    await expect(pool.describe(join(dir, 'broken.js'))).rejects.toThrow(
      /must export default \{ name, description, parameters, execute \}/,
    );
  });
});
