import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { expectEventually, freePortRun, REPO_ROOT } from '@app/testing';
import {
  ADMIN_KEY,
  alive,
  commandOf,
  ctrlC,
  type NpmStart,
  portClosed,
  startNpm,
  waitHealthy,
} from './npm-start.harness';

// SHUTDOWN_TIMEOUT of the started platforms (npm-start.harness) plus the supervisor's margin.
const STOPPED_WITHIN_MS = 15_000;

describe('npm start, stopped through the npm process', () => {
  let app: NpmStart | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  for (const [how, stop] of [
    ['SIGTERM to npm', (started: NpmStart) => started.npm.kill('SIGTERM')],
    ['SIGINT to npm', (started: NpmStart) => started.npm.kill('SIGINT')],
    ['Ctrl-C in a terminal', ctrlC],
  ] as const) {
    it(`stops every process it started, gracefully, on ${how}`, { timeout: 120_000 }, async () => {
      app = await startNpm();
      await waitHealthy(app);
      const pids = app.descendants();
      expect(app.services()).toHaveLength(4);
      // Run from a copy of dist of their own, so a build meanwhile (npm run cli) rewrites nothing they run.
      const supervisor = pids.find((pid) => commandOf(pid).includes('scripts/start.mjs'));
      const copy = join(REPO_ROOT, 'data/run', String(supervisor), 'dist');
      for (const pid of app.services()) expect(commandOf(pid)).toContain(`${copy}/apps/`);
      stop(app);
      await expectEventually(() => expect(pids.filter(alive)).toEqual([]), { timeoutMs: STOPPED_WITHIN_MS });
      await portClosed(app.base);
      expect(await app.exited).toEqual({ code: 0, signal: null });
      expect(existsSync(copy)).toBe(false);
      expect(app.output()).not.toMatch(/restart \d+ in|killing every process/);
      for (const service of ['gateway', 'agent-executor', 'function-runner', 'scheduler']) {
        expect(app.output()).toMatch(new RegExp(`${service} +\\| .*\\[${service}\\] stopped`));
      }
    });
  }

  it('leaves no service behind when its supervisor is killed with -9', { timeout: 120_000 }, async () => {
    app = await startNpm();
    await waitHealthy(app);
    const services = app.services();
    const supervisor = app.descendants().find((pid) => commandOf(pid).includes('scripts/start.mjs'));
    expect(supervisor).toBeDefined();
    process.kill(supervisor!, 'SIGKILL');
    await expectEventually(() => expect(services.filter(alive)).toEqual([]), {
      timeoutMs: STOPPED_WITHIN_MS,
    });
    await portClosed(app.base);
  });
});

describe('npm start supervising its services', () => {
  let app: NpmStart | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it(
    'restarts a function-runner killed with -9, and functions work again',
    { timeout: 120_000 },
    async () => {
      app = await startNpm();
      await waitHealthy(app);
      const [runner] = app.services('function-runner');
      process.kill(runner, 'SIGKILL');
      await expectEventually(() => expect(alive(runner)).toBe(false));
      const invoke = () =>
        fetch(`${app!.base}/api/v1/functions/send_message/invoke`, {
          method: 'POST',
          headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
          body: JSON.stringify({ params: { to: 'ops', message: 'back again' } }),
        });
      await expectEventually(
        async () => {
          const res = await invoke();
          expect(res.status).toBe(200);
          expect(await res.json()).toMatchObject({ status: 'success' });
        },
        { timeoutMs: 30_000, intervalMs: 250 },
      );
      expect(app.services('function-runner')).toHaveLength(1);
      expect(app.services('function-runner')).not.toContain(runner);
      expect(app.output()).toMatch(
        /agentchassis: function-runner exited \(SIGKILL\) after [\d.]+ s; restart 1 in 0\.5 s/,
      );
    },
  );

  it('reports a service that keeps exiting right after it starts', { timeout: 120_000 }, async () => {
    // The first service with a probe port (agent-executor) finds METRICS_PORT taken, every time.
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '0.0.0.0', resolve));
    try {
      const started = await startNpm([], { METRICS_PORT: String((taken.address() as AddressInfo).port) });
      app = started;
      await expectEventually(
        () =>
          expect(started.output()).toMatch(
            /agentchassis: agent-executor is crash-looping: it exited within 5 s of starting 3 times in a row; its last line: ".*EADDRINUSE.*"; retrying up to every 10 s \(Ctrl-C stops\)/,
          ),
        { timeoutMs: 60_000, intervalMs: 250 },
      );
      expect(started.output()).toMatch(/agent-executor exited \(code 1\) after [\d.]+ s; restart 3 in 2 s/);
    } finally {
      taken.close();
    }
  });

  it('runs replicas with their own log prefixes and probe ports', { timeout: 120_000 }, async () => {
    // One probe port each for the six services without an API: METRICS_PORT, +1, ... +5, all free.
    const metrics = await freePortRun(6);
    const started = await startNpm(['--scale', 'agent-executor=2', '--scale', 'function-runner=3'], {
      METRICS_PORT: String(metrics),
    });
    app = started;
    await waitHealthy(app);
    expect(app.services('agent-executor'), app.output()).toHaveLength(2);
    expect(app.services('function-runner'), app.output()).toHaveLength(3);
    expect(app.services('scheduler'), app.output()).toHaveLength(1);
    await expectEventually(() => {
      expect(started.output()).toMatch(/function-runner#3 \| .*function-runner 0\.1\.0 ready/);
      expect(started.output()).toMatch(/agent-executor#2 +\| .*agent-executor 0\.1\.0 ready/);
    });
    const answers = await Promise.all(
      [0, 1, 2, 3, 4, 5].map((i) => fetch(`http://127.0.0.1:${metrics + i}/health`).then((r) => r.status)),
    );
    expect(answers).toEqual([200, 200, 200, 200, 200, 200]);
    const [replica] = app.services('function-runner');
    process.kill(replica, 'SIGKILL');
    await expectEventually(() => expect(started.services('function-runner')).toHaveLength(3), {
      timeoutMs: 20_000,
    });
  });
});

describe('npm start with a bad command line', () => {
  for (const [args, message] of [
    [
      ['--scale', 'nope=2'],
      /--scale nope=2: unknown service 'nope' \(one of gateway, agent-executor, function-runner, scheduler\)/,
    ],
    [
      ['--scale', 'function-runner=zero'],
      /--scale function-runner=zero: the number of replicas must be a whole number from 1 to 16/,
    ],
    [['--scale', 'function-runner=0'], /must be a whole number from 1 to 16/],
    [['--scale', 'gateway=2'], /npm start runs one gateway/],
    [
      ['--replicas', '2'],
      /Unknown option '--replicas'.*usage: npm start -- \[--scale <service>=<n>\]\.\.\. \[--no-build\]/,
    ],
  ] as const) {
    it(`refuses ${args.join(' ')} in one line`, () => {
      const result = spawnSync('npm', ['start', '--silent', '--', ...args], {
        cwd: REPO_ROOT,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' },
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(result.status).toBe(1);
      const lines = result.stderr.split('\n').filter((line) => line.startsWith('agentchassis:'));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(message);
    });
  }
});
