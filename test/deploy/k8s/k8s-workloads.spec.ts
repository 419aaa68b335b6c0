import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_KEYS, type PlatformConfig } from '@app/config';
import { SERVICE_NAMES, type ServiceName } from '@app/contracts';
import { REPO_ROOT } from './render';
import { referenceProblems } from './references';
import { ofKind, OVERLAYS, renderOverlay } from './render';
import { serviceConfig } from './service-config';
import {
  deployment,
  envValue,
  hardeningProblems,
  imageProblems,
  mainContainer,
  maxOldSpaceMb,
  MiB,
  podSpec,
  probeProblems,
  quantity,
  resourceProblems,
  restrictedProblems,
  secretReferences,
  shutdownProblems,
} from './workloads';

const dockerfile = readFileSync(join(REPO_ROOT, 'deploy/Dockerfile'), 'utf8');
const natsAuth = readFileSync(join(REPO_ROOT, 'deploy/nats/auth.conf'), 'utf8');

/** The longest piece of work each service may be in the middle of when it is told to stop. */
const runDeadlineMs = (c: PlatformConfig) =>
  Math.max(c.executor.run_timeout, c.llm.timeout * (c.llm.max_retries + 1));
const LONGEST_DEADLINE_MS: Record<ServiceName, (c: PlatformConfig) => number> = {
  gateway: runDeadlineMs, // a synchronous chat request (or an SSE stream) waits for its run
  'agent-executor': runDeadlineMs,
  'function-runner': (c) => c.functions.default_timeout,
  scheduler: (c) => c.scheduler.fire_timeout,
};

/** The keys of agentchassis-secrets each service reads; `?` marks an optional one. */
const SECRETS: Record<ServiceName, string[]> = {
  gateway: ['DATABASE_URL', 'AC_ADMIN_KEY', 'NATS_GATEWAY_PASSWORD', 'REDIS_URL?'],
  'agent-executor': ['DATABASE_URL', 'LLM_API_KEY', 'NATS_EXECUTOR_PASSWORD'],
  'function-runner': ['NATS_RUNNER_PASSWORD', 'MESSAGE_WEBHOOK_URL?'],
  scheduler: ['DATABASE_URL', 'NATS_SCHEDULER_PASSWORD', 'REDIS_URL?'],
};

/** Environment variables the Deployments may set beyond the configuration keys. */
const NON_CONFIG_ENV = ['AC_CONFIG', 'NODE_OPTIONS'];
const CONFIG_ENV = new Set<string>([...CONFIG_KEYS.map((k) => k.env), ...NON_CONFIG_ENV]);

/** NATS_<SERVICE>_PASSWORD per NATS user in deploy/nats/auth.conf. */
const natsPasswordVariable = (user: string) =>
  new RegExp(`user: "${user}",\\s*password: \\$(\\w+)`).exec(natsAuth)?.[1];

describe.each(OVERLAYS)('overlays/%s: the four services', (overlay) => {
  const objects = renderOverlay(overlay);
  const services = SERVICE_NAMES.map((name) => deployment(objects, name));

  it('runs each service as a Deployment of its own image', () => {
    for (const w of services) {
      expect(mainContainer(w).image, w.metadata.name).toMatch(
        new RegExp(`(^|/)agentchassis/${w.metadata.name}:`),
      );
    }
  });

  it('gives every Deployment liveness and readiness probes', () => {
    expect(probeProblems(objects)).toEqual([]);
    for (const w of services) expect(mainContainer(w).startupProbe, w.metadata.name).toBeDefined();
  });

  it('probes the gateway on /health/live, never on the platform-wide /health', () => {
    const gateway = mainContainer(deployment(objects, 'gateway'));
    for (const probe of [gateway.livenessProbe, gateway.readinessProbe, gateway.startupProbe]) {
      expect(probe?.httpGet).toMatchObject({ path: '/health/live', port: 'http' });
    }
    const http = gateway.ports?.find((p) => p.name === 'http')?.containerPort;
    expect(http).toBe(Number(envValue(gateway, 'PORT')));
    expect(serviceConfig(objects, 'gateway').gateway.port).toBe(http);
  });

  it('probes the other services on METRICS_PORT: /health for liveness, /ready for readiness', () => {
    for (const name of SERVICE_NAMES.filter((n) => n !== 'gateway')) {
      const c = mainContainer(deployment(objects, name));
      const port = c.ports?.find((p) => p.name === 'metrics')?.containerPort;
      expect(port, name).toBe(Number(envValue(c, 'METRICS_PORT')));
      expect(serviceConfig(objects, name).metrics.port, name).toBe(port);
      expect(c.livenessProbe?.httpGet, name).toMatchObject({ path: '/health', port: 'metrics' });
      expect(c.readinessProbe?.httpGet, name).toMatchObject({ path: '/ready', port: 'metrics' });
    }
  });

  it('sets resource requests and limits on every container', () => {
    expect(resourceProblems(objects)).toEqual([]);
  });

  it('caps the V8 heap well below each memory limit', () => {
    for (const w of services) {
      const c = mainContainer(w);
      const limit = quantity(c.resources?.limits?.memory) / MiB;
      expect(maxOldSpaceMb(c), w.metadata.name).toBeLessThanOrEqual(0.7 * limit);
    }
  });

  it('pins every image to a version', () => {
    expect(imageProblems(objects)).toEqual([]);
  });

  it('runs every container non-root, without capabilities, under seccomp RuntimeDefault, on a read-only root', () => {
    expect(services.flatMap(hardeningProblems)).toEqual([]);
    expect(restrictedProblems(objects)).toEqual([]);
    for (const w of services) expect(podSpec(w).securityContext?.runAsUser, w.metadata.name).toBe(1000); // `node` in the image
  });

  it('holds back SIGTERM with preStop and outlasts each service’s longest deadline', () => {
    for (const name of SERVICE_NAMES) {
      const deadline = LONGEST_DEADLINE_MS[name](serviceConfig(objects, name));
      expect(shutdownProblems(deployment(objects, name), deadline)).toEqual([]);
    }
  });

  it('starts every service with a configuration the real loader accepts', () => {
    for (const name of SERVICE_NAMES) expect(() => serviceConfig(objects, name), name).not.toThrow();
  });

  it('sets only environment variables the configuration knows', () => {
    for (const w of services) {
      const names = (mainContainer(w).env ?? []).map((e) => e.name);
      expect(
        names.filter((n) => !CONFIG_ENV.has(n)),
        w.metadata.name,
      ).toEqual([]);
    }
  });

  it('hands each service only the secrets it needs', () => {
    for (const w of services) {
      const keys = secretReferences(w)
        .filter((ref) => ref.startsWith('agentchassis-secrets'))
        .map((ref) => ref.split('/')[1]);
      const expected = SECRETS[w.metadata.name as ServiceName].map((k) => k.replace('?', ''));
      expect([...new Set(keys)].sort(), w.metadata.name).toEqual(expected.sort());
      for (const e of mainContainer(w).env ?? []) {
        const ref = e.valueFrom?.secretKeyRef;
        if (ref)
          expect(!!ref.optional, `${w.metadata.name} ${ref.key}`).toBe(
            SECRETS[w.metadata.name as ServiceName].includes(`${ref.key}?`),
          );
      }
    }
  });

  it('connects each service to NATS as its own user, with the password deploy/nats/auth.conf expects', () => {
    for (const w of services) {
      const c = mainContainer(w);
      expect(envValue(c, 'NATS_USER')).toBe(w.metadata.name);
      const password = c.env?.find((e) => e.name === 'NATS_PASSWORD')?.valueFrom?.secretKeyRef;
      expect(password?.key, w.metadata.name).toBe(natsPasswordVariable(w.metadata.name));
      expect(password?.optional, w.metadata.name).toBeFalsy();
    }
  });

  it('migrates the database in an init container, with the service’s own image, before a service that uses it starts', () => {
    const migrate = JSON.parse(/^FROM runtime AS migrate\nCMD (\[.*\])$/m.exec(dockerfile)![1]) as string[];
    for (const w of services) {
      const usesDatabase = SECRETS[w.metadata.name as ServiceName].includes('DATABASE_URL');
      const init = podSpec(w).initContainers ?? [];
      if (!usesDatabase) {
        expect(init, w.metadata.name).toEqual([]);
        continue;
      }
      expect(
        init.map((c) => c.name),
        w.metadata.name,
      ).toEqual(['migrate']);
      expect(init[0].image).toBe(mainContainer(w).image);
      expect(init[0].command).toEqual(migrate);
      expect(init[0].env?.map((e) => e.name)).toEqual(['DATABASE_URL']);
    }
  });

  it('annotates every pod for Prometheus on the port that serves /metrics', () => {
    for (const w of services) {
      const annotations = w.spec.template.metadata?.annotations ?? {};
      const port = mainContainer(w).ports?.find(
        (p) => p.name === (w.metadata.name === 'gateway' ? 'http' : 'metrics'),
      )?.containerPort;
      expect(annotations, w.metadata.name).toMatchObject({
        'prometheus.io/scrape': 'true',
        'prometheus.io/port': String(port),
        'prometheus.io/path': '/metrics',
      });
    }
  });

  it('budgets voluntary disruptions for every service', () => {
    const budgets = ofKind<{
      spec: { maxUnavailable?: number; selector: { matchLabels: Record<string, string> } };
    }>(objects, 'PodDisruptionBudget');
    for (const w of services) {
      const budget = budgets.find(
        (b) => b.spec.selector.matchLabels['app.kubernetes.io/name'] === w.metadata.name,
      );
      expect(budget?.spec.maxUnavailable, w.metadata.name).toBe(1);
    }
  });

  it('resolves every reference: ConfigMaps, Secrets and their keys, Services, selectors, autoscaler targets', () => {
    const external = overlay === 'prod' ? ['agentchassis-secrets', 'agentchassis-tls'] : [];
    expect(referenceProblems(objects, external)).toEqual([]);
  });
});

describe('the workload checks themselves', () => {
  const objects = () => renderOverlay('dev');

  it('notice a Deployment without a readiness probe', () => {
    const broken = objects();
    delete mainContainer(deployment(broken, 'scheduler')).readinessProbe;
    expect(probeProblems(broken)).toEqual(['Deployment/scheduler container scheduler has no readinessProbe']);
  });

  it('notice a probe aimed at a port the container does not have', () => {
    const broken = objects();
    mainContainer(deployment(broken, 'gateway')).livenessProbe!.httpGet!.port = 'metrics';
    expect(probeProblems(broken)).toEqual([
      'Deployment/gateway container gateway livenessProbe targets port metrics, which the container does not declare',
    ]);
  });

  it('notice a container without resources', () => {
    const broken = objects();
    delete podSpec(deployment(broken, 'gateway')).initContainers![0].resources;
    expect(resourceProblems(broken)).toEqual([
      'Deployment/gateway container migrate requests no cpu',
      'Deployment/gateway container migrate has no cpu limit',
      'Deployment/gateway container migrate requests no memory',
      'Deployment/gateway container migrate has no memory limit',
    ]);
  });

  it('notice a writable root filesystem and a kept capability', () => {
    const broken = objects();
    const runner = deployment(broken, 'function-runner');
    mainContainer(runner).securityContext = {
      readOnlyRootFilesystem: false,
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['NET_RAW'] },
    };
    expect(hardeningProblems(runner)).toEqual([
      'Deployment/function-runner container function-runner keeps capabilities (drop ALL)',
      'Deployment/function-runner container function-runner can write its root filesystem',
    ]);
  });

  it('notice a grace period that would cut the longest run off', () => {
    const broken = objects();
    const executor = deployment(broken, 'agent-executor');
    podSpec(executor).terminationGracePeriodSeconds = 120;
    expect(shutdownProblems(executor, 300_000)).toEqual([
      'Deployment/agent-executor gives 120s to terminate; 5s preStop + 300s deadline + 10s drain need 315s',
    ]);
  });

  it('notice a latest image', () => {
    const broken = objects();
    mainContainer(deployment(broken, 'scheduler')).image = 'agentchassis/scheduler:latest';
    expect(imageProblems(broken)).toEqual([
      'Deployment/scheduler container scheduler runs agentchassis/scheduler:latest',
    ]);
  });
});
