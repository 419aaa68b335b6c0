import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { SERVICE_NAMES } from '@app/contracts';
import { nodeFlags, REPO_ROOT } from '@app/testing';

type ComposeService = {
  image?: string;
  read_only?: boolean;
  tmpfs?: string[];
  cap_drop?: string[];
  security_opt?: string[];
  build?: { target?: string; dockerfile?: string };
  healthcheck?: unknown;
  depends_on?: Record<string, { condition: string }>;
  environment?: Record<string, string>;
  ports?: string[];
  container_name?: string;
  command?: string[];
};

const compose = parse(readFileSync(join(REPO_ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
  services: Record<string, ComposeService>;
};
const dockerfile = readFileSync(join(REPO_ROOT, 'deploy/Dockerfile'), 'utf8');
/** Each target's `CMD ["node", ...]`, its arguments after `node`. */
const commands = [...dockerfile.matchAll(/^CMD (\["node", .*\])$/gm)].map((m) =>
  (JSON.parse(m[1]) as string[]).slice(1),
);
const hasDockerCompose = spawnSync('docker-compose', ['version'], { stdio: 'ignore' }).status === 0;

describe('docker-compose.yml', () => {
  // .ci/run installs Debian's docker-compose; a machine without it fails here rather than skip quietly.
  it('passes docker-compose config validation', () => {
    if (!hasDockerCompose) throw new Error("docker-compose is required (Debian package 'docker-compose')");
    expect(() =>
      execFileSync('docker-compose', ['config', '-q'], { cwd: REPO_ROOT, stdio: 'pipe' }),
    ).not.toThrow();
  });

  it('runs nats, redis, postgres and the four services, each with a healthcheck', () => {
    for (const name of ['nats', 'redis', 'postgres'])
      expect(compose.services[name]?.healthcheck, name).toBeDefined();
    for (const name of SERVICE_NAMES) {
      const service = compose.services[name];
      expect(service, name).toBeDefined();
      expect(service.build?.target).toBe(name);
      expect(service.depends_on?.nats?.condition).toBe('service_healthy');
    }
  });

  it('keeps the function-runner scalable and away from the database', () => {
    const runner = compose.services['function-runner'];
    expect(runner.container_name).toBeUndefined();
    expect(runner.ports).toBeUndefined();
    expect(Object.keys(runner.environment ?? {})).not.toContain('DATABASE_URL');
    expect(Object.keys(runner.environment ?? {})).not.toContain('LLM_API_KEY');
  });

  it('migrates before the services that use the database start', () => {
    for (const name of ['gateway', 'agent-executor', 'scheduler']) {
      expect(compose.services[name].depends_on?.migrate?.condition).toBe('service_completed_successfully');
    }
  });

  it('publishes no store that has no password (Redis, PostgreSQL): only NATS, with its users, and the API', () => {
    expect(compose.services.redis.ports).toBeUndefined();
    expect(compose.services.postgres.ports).toBeUndefined();
  });

  it('gives Redis durability settings BullMQ needs', () => {
    const command = compose.services.redis.command?.join(' ') ?? '';
    expect(command).toMatch(/--appendonly yes/);
    expect(command).toMatch(/--appendfsync everysec/);
    expect(command).toMatch(/--maxmemory-policy noeviction/);
  });

  it('connects each service to NATS as its own user from deploy/nats/auth.conf', () => {
    const auth = readFileSync(join(REPO_ROOT, 'deploy/nats/auth.conf'), 'utf8');
    for (const name of SERVICE_NAMES) {
      const env = compose.services[name].environment ?? {};
      expect(env.NATS_USER, name).toBe(name);
      expect(env.NATS_PASSWORD, name).toBeTruthy();
      expect(auth).toContain(`user: "${name}"`);
    }
    expect(readFileSync(join(REPO_ROOT, 'deploy/nats/nats.conf'), 'utf8')).toMatch(
      /^include \.\/auth\.conf$/m,
    );
  });

  it('runs the services and the migration on a read-only root filesystem, without capabilities', () => {
    for (const name of [...SERVICE_NAMES, 'migrate']) {
      const service = compose.services[name];
      expect({ name, readOnly: service.read_only, caps: service.cap_drop }).toEqual({
        name,
        readOnly: true,
        caps: ['ALL'],
      });
      expect(service.security_opt, name).toContain('no-new-privileges:true');
    }
    for (const name of SERVICE_NAMES) expect(compose.services[name].tmpfs, name).toEqual(['/tmp']);
  });

  it('fsyncs every JetStream write', () => {
    expect(readFileSync(join(REPO_ROOT, 'deploy/nats/nats.conf'), 'utf8')).toMatch(
      /^\s*sync_interval:\s*always/m,
    );
  });
});

describe('deploy/Dockerfile', () => {
  it('builds on node:24-slim with a target per service and one for migrations', () => {
    expect(dockerfile).toMatch(/^FROM node:24-slim AS deps$/m);
    for (const target of [...SERVICE_NAMES, 'migrate'])
      expect(dockerfile).toMatch(new RegExp(`^FROM runtime AS ${target}$`, 'm'));
  });

  it('starts each target from a file the build produces', () => {
    const files = commands.map((args) => args.find((arg) => !arg.startsWith('--')) ?? '');
    expect(files).toHaveLength(SERVICE_NAMES.length + 1);
    for (const file of files) expect(existsSync(join(REPO_ROOT, file)), file).toBe(true);
  });

  it('starts each service with the V8 flags of deploy/node-flags.json, as npm start and the tests do', () => {
    const nodeOptions = /NODE_OPTIONS=("[^"]*"|\S+)/.exec(dockerfile)?.[1].replace(/"/g, '').split(' ') ?? [];
    const services = commands.filter((args) => args.some((arg) => arg.startsWith('dist/apps/')));
    expect(services).toHaveLength(SERVICE_NAMES.length);
    for (const args of services)
      for (const flag of nodeFlags(REPO_ROOT))
        expect([...args, ...nodeOptions], `${args.at(-1)} ${flag}`).toContain(flag);
  });

  it("probes each service's health on the port its environment names", () => {
    const stages = dockerfile.split(/^FROM runtime AS /m).slice(1);
    const probes = stages.flatMap((stage) => {
      const probe = /^HEALTHCHECK .*\n\s*CMD (.*)$/m.exec(stage)?.[1];
      return probe ? [[stage.split('\n')[0], probe]] : [];
    });
    expect(probes.map(([target]) => target).sort()).toEqual([...SERVICE_NAMES].sort());
    for (const [target, probe] of probes)
      expect(probe, target).toContain(target === 'gateway' ? 'process.env.PORT' : 'process.env.METRICS_PORT');
  });

  it('sends no installed packages, build output, history or secrets as the build context', () => {
    const ignored = readFileSync(join(REPO_ROOT, '.dockerignore'), 'utf8').split('\n');
    for (const path of ['.git', 'node_modules', 'dist', '.env']) expect(ignored, path).toContain(path);
  });

  it('copies only paths that exist and runs as a non-root user', () => {
    const sources = [...dockerfile.matchAll(/^COPY (?!--from)(?:--\S+ )*(.+) \S+$/gm)].flatMap((m) =>
      m[1].split(' '),
    );
    for (const source of sources) expect(existsSync(join(REPO_ROOT, source)), source).toBe(true);
    expect(dockerfile).toMatch(/^USER node$/m);
  });
});
