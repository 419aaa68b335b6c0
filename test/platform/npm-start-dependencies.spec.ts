import { spawnSync } from 'node:child_process';
import { mkdtempSync, symlinkSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { expectEventually, freshSqliteUrl, REPO_ROOT } from '@app/testing';
import { alive, commandOf, freePort, type NpmStart, startNpm, waitHealthy } from './npm-start.harness';

const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

describe('npm start where NATS and Redis are installed but not running', () => {
  let app: NpmStart | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('starts both, runs on them, and stops them with the platform', { timeout: 120_000 }, async () => {
    const [natsPort, redisPort] = [await freePort(), await freePort()];
    const started = await startNpm([], {
      NATS_URL: `nats://127.0.0.1:${natsPort}`,
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    });
    app = started;
    await waitHealthy(started);
    expect(started.output()).toContain(
      `agentchassis: started nats-server on 127.0.0.1:${natsPort} and redis-server on 127.0.0.1:${redisPort} ` +
        '(data and logs in ./data); stopped with the platform',
    );
    const servers = started.descendants().filter((pid) => /(nats|redis)-server/.test(commandOf(pid)));
    expect(servers).toHaveLength(2);
    expect(servers.map(commandOf).join('\n')).toMatch(/nats-server .*-js -sd \S+\/data\/nats/);
    started.npm.kill('SIGTERM');
    await expectEventually(() => expect(servers.filter(alive)).toEqual([]), { timeoutMs: 15_000 });
    expect([await listening(natsPort), await listening(redisPort)]).toEqual([false, false]);
    expect(await started.exited).toEqual({ code: 0, signal: null });
  });

  it('leaves neither server behind when its supervisor is killed with -9', { timeout: 120_000 }, async () => {
    const started = await startNpm([], {
      NATS_URL: `nats://127.0.0.1:${await freePort()}`,
      REDIS_URL: `redis://127.0.0.1:${await freePort()}`,
    });
    app = started;
    await waitHealthy(started);
    const everything = started.descendants();
    const supervisor = everything.find((pid) => commandOf(pid).includes('scripts/start.mjs'));
    process.kill(supervisor!, 'SIGKILL');
    await expectEventually(() => expect(everything.filter(alive)).toEqual([]), { timeoutMs: 15_000 });
  });
});

describe('npm start where NATS and Redis are neither running nor installed', () => {
  it('names both ways to get them in one line', async () => {
    // A PATH with node, npm and sh only: no nats-server, no redis-server.
    const bin = mkdtempSync(join(tmpdir(), 'ac-path-'));
    for (const tool of ['node', 'npm', 'sh']) {
      const found = spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
      symlinkSync(found, join(bin, tool));
    }
    const [natsPort, redisPort] = [await freePort(), await freePort()];
    const result = spawnSync('npm', ['start', '--silent', '--', '--no-build'], {
      cwd: REPO_ROOT,
      env: {
        PATH: bin,
        HOME: process.env.HOME ?? '/tmp',
        NATS_URL: `nats://127.0.0.1:${natsPort}`,
        REDIS_URL: `redis://127.0.0.1:${redisPort}`,
        DATABASE_URL: freshSqliteUrl(),
      },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(result.status).toBe(1);
    const lines = result.stderr.split('\n').filter((line) => line.startsWith('agentchassis:'));
    expect(lines).toEqual([
      `agentchassis: cannot reach NATS at nats://127.0.0.1:${natsPort} (NATS_URL) or Redis at redis://127.0.0.1:${redisPort} (REDIS_URL): ` +
        "start them with 'docker compose up -d nats redis', or install them " +
        "('apt-get install nats-server redis-server' / 'brew install nats-server redis') and npm start runs them",
    ]);
  });

  it('never starts a server for a URL it does not manage', async () => {
    const port = await freePort();
    const result = spawnSync('npm', ['start', '--silent', '--', '--no-build'], {
      cwd: REPO_ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '/tmp',
        // Not 127.0.0.1 or localhost, so not one npm start manages; on loopback, so no traffic leaves
        // the machine; a free port, so nothing answers.
        NATS_URL: `nats://127.0.0.2:${port}`,
        DATABASE_URL: freshSqliteUrl(),
      },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(
      new RegExp(
        `agentchassis: cannot reach NATS at nats://127\\.0\\.0\\.2:${port} \\(NATS_URL\\): check the URL and the server`,
      ),
    );
    expect(result.stdout).not.toMatch(/started nats-server/);
  });
});
