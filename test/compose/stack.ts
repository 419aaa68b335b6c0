import { execFile } from 'node:child_process';
import { expect } from 'vitest';
import { expectEventually } from '@app/testing';

/**
 * The compose tier's view of the stack that scripts/compose/run.sh built: docker-compose and the
 * Docker engine through their command lines (the environment names the engine, the compose files
 * and the project), every call bounded.
 */
const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the compose tier with 'npm run test:compose'`);
  return value;
};

export const HOST_IP = env('AC_COMPOSE_HOST_IP');
export const ADMIN_KEY = env('AC_ADMIN_KEY');
export const DOCKER = process.env.AC_COMPOSE_DOCKER ?? 'docker';
export const SERVICES = ['gateway', 'agent-executor', 'function-runner', 'scheduler'] as const;
export type Service = (typeof SERVICES)[number];

function run(file: string, args: string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${file} ${args.join(' ')} failed: ${err.message}\n${stderr}`));
      else resolve(stdout);
    });
  });
}

/** `docker-compose <args>`, within `timeoutMs`. */
export const compose = (args: string[], timeoutMs = 120_000) => run('docker-compose', args, timeoutMs);
/** `docker <args>`, within `timeoutMs`. */
export const docker = (args: string[], timeoutMs = 60_000) => run(DOCKER, args, timeoutMs);

/** The ids of a service's containers. */
export async function containersOf(service: string): Promise<string[]> {
  return (await compose(['ps', '-q', service])).split('\n').filter(Boolean);
}

export interface ContainerState {
  id: string;
  name: string;
  running: boolean;
  health?: string;
  startedAt: string;
  restarts: number;
  pid: number;
  ip: string;
  user: string;
  readOnly: boolean;
  image: string;
}

export async function inspect(id: string): Promise<ContainerState> {
  const [c] = JSON.parse(await docker(['inspect', id])) as {
    Id: string;
    Name: string;
    RestartCount: number;
    Image: string;
    State: { Running: boolean; Health?: { Status: string }; StartedAt: string; Pid: number };
    Config: { User: string };
    HostConfig: { ReadonlyRootfs: boolean };
    NetworkSettings: { Networks: Record<string, { IPAddress: string }> };
  }[];
  return {
    id: c.Id,
    name: c.Name.replace(/^\//, ''),
    running: c.State.Running,
    health: c.State.Health?.Status,
    startedAt: c.State.StartedAt,
    restarts: c.RestartCount,
    pid: c.State.Pid,
    ip: Object.values(c.NetworkSettings.Networks)[0]?.IPAddress ?? '',
    user: c.Config.User,
    readOnly: c.HostConfig.ReadonlyRootfs,
    image: c.Image,
  };
}

/** Waits until every container of `services` runs and is healthy (those with a healthcheck). */
export async function untilHealthy(
  services: readonly string[],
  count = 1,
  timeoutMs = 120_000,
): Promise<void> {
  await expectEventually(
    async () => {
      for (const service of services) {
        const ids = await containersOf(service);
        expect(ids.length, service).toBe(count);
        for (const id of ids) {
          const state = await inspect(id);
          expect({ service, running: state.running, health: state.health ?? 'none' }).toEqual({
            service,
            running: true,
            health: state.health === undefined ? 'none' : 'healthy',
          });
        }
      }
    },
    { timeoutMs, intervalMs: 1_000 },
  );
}

/** The host address of a service's published port. */
export async function published(service: string, port: number): Promise<string> {
  const out = (await compose(['port', service, String(port)])).trim();
  const hostPort = out.split(':').pop();
  if (!hostPort) throw new Error(`${service} publishes no port ${port}`);
  return `http://${HOST_IP}:${hostPort}`;
}

/** A service's log (all its containers) as docker-compose prints it. */
export const logsOf = (service: string) => compose(['logs', '--no-color', service]);

/** A call on the gateway's API as the admin, answered with its status and body. */
export async function api(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  key = ADMIN_KEY,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(120_000),
  });
  const text = await res.text();
  let parsed: Record<string, unknown> = {};
  try {
    parsed = JSON.parse(text) as Record<string, unknown>;
  } catch {
    parsed = { text };
  }
  return { status: res.status, body: parsed };
}

/** Replaces the scripted model's script. */
export async function script(llm: string, value: unknown): Promise<void> {
  const res = await fetch(`${llm}/_script`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(value),
    signal: AbortSignal.timeout(10_000),
  });
  expect(res.status, await res.text()).toBe(200);
}

/** An XML+TOON function call as the model writes it. */
export const call = (name: string, params: Record<string, string | number> = {}) =>
  `<call name="${name}">${Object.entries(params)
    .map(([k, v]) => `<p>${k}: ${v}</p>`)
    .join('')}</call>`;

/** The lines in which NATS refused someone (permissions, authorization). */
export const violations = (log: string) => log.split('\n').filter((line) => /Violation/.test(line));

/** What the tier's checks share: where the stack answers, and what it has made so far. */
export interface Stack {
  /** The gateway's published port. */
  base: string;
  /** The scripted model's published port. */
  llm: string;
  adminKey: string;
  /** Sessions made by the checks, to find again after `down` and `up`. */
  sessions: string[];
  /** NATS's log of each stack lifetime (a `down` removes the container and its log). */
  natsLogs: string[];
  ps(): Promise<string>;
}
