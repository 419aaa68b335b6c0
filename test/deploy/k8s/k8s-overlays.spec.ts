import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVICE_NAMES } from '@app/contracts';
import { REPO_ROOT } from './render';
import type { NetworkPolicy } from './network';
import { K8S_DIR, type K8sObject, named, ofKind, renderOverlay, renderWithComponents } from './render';
import { containerEnv, serviceConfig } from './service-config';
import { deployment, mainContainer, podSpec, type Workload, workloads } from './workloads';

type Hpa = {
  spec: {
    minReplicas: number;
    maxReplicas: number;
    scaleTargetRef: { name: string };
    metrics: { type: string; resource?: { name: string } }[];
  };
};
type Secret = { data: Record<string, string> };

const hostOf = (url: string) => new URL(url).hostname;
const decoded = (secret: Secret) =>
  Object.fromEntries(
    Object.entries(secret.data).map(([k, v]) => [
      k,
      Buffer.from(v.replace(/\s/g, ''), 'base64').toString('utf8'),
    ]),
  );

describe('overlays/dev', () => {
  const objects = renderOverlay('dev');

  it('runs one replica of everything, without autoscalers', () => {
    for (const w of workloads(objects)) expect(w.spec.replicas, w.metadata.name).toBe(1);
    expect(ofKind(objects, 'HorizontalPodAutoscaler')).toEqual([]);
  });

  it('runs NATS, Redis and PostgreSQL as StatefulSets on persistent volumes', () => {
    const sets = ofKind<Workload & { spec: { volumeClaimTemplates: unknown[] } }>(objects, 'StatefulSet');
    expect(sets.map((s) => s.metadata.name).sort()).toEqual(['nats', 'postgres', 'redis']);
    for (const set of sets) expect(set.spec.volumeClaimTemplates, set.metadata.name).toHaveLength(1);
  });

  it('runs NATS with JetStream and per-service users, configured exactly as docker compose', () => {
    for (const file of ['nats.conf', 'auth.conf']) {
      const copy = readFileSync(join(K8S_DIR, 'overlays/dev', file), 'utf8');
      expect(copy, `overlays/dev/${file} differs from deploy/nats/${file}`).toBe(
        readFileSync(join(REPO_ROOT, 'deploy/nats', file), 'utf8'),
      );
    }
    const nats = mainContainer(named<Workload>(objects, 'StatefulSet', 'nats'));
    expect(nats.args).toEqual(['-c', '/etc/nats/nats.conf']);
    expect(nats.readinessProbe?.httpGet?.path).toBe('/healthz?js-enabled-only=true');
    const passwords = readFileSync(join(K8S_DIR, 'overlays/dev/auth.conf'), 'utf8').match(
      /\$NATS_\w+_PASSWORD/g,
    )!;
    const env = containerEnv(objects, nats, 'none');
    for (const variable of passwords) expect(env[variable.slice(1)], variable).toMatch(/^dev-placeholder-/);
  });

  it('gives Redis the durability settings BullMQ needs', () => {
    const command = mainContainer(named<Workload>(objects, 'StatefulSet', 'redis')).command!.join(' ');
    expect(command).toMatch(/--appendonly yes/);
    expect(command).toMatch(/--appendfsync everysec/);
    expect(command).toMatch(/--maxmemory-policy noeviction/);
  });

  it('points the services at the in-cluster NATS, Redis and PostgreSQL', () => {
    const services = ofKind(objects, 'Service').map((s) => s.metadata.name);
    for (const name of SERVICE_NAMES) {
      const config = serviceConfig(objects, name);
      expect(services, name).toContain(hostOf(config.nats.url));
      if (name === 'gateway' || name === 'scheduler')
        expect(services, name).toContain(hostOf(config.redis.url));
      if (name !== 'function-runner') expect(services, name).toContain(hostOf(config.database.url));
    }
  });

  it('generates only placeholder secrets, and the database password matches PostgreSQL’s', () => {
    const values = decoded(named<Secret>(objects, 'Secret', ofKind(objects, 'Secret')[0].metadata.name));
    for (const [key, value] of Object.entries(values)) expect(value, key).toMatch(/placeholder/);
    expect(new URL(values.DATABASE_URL).password).toBe(values.POSTGRES_PASSWORD);
  });

  it('enforces Pod Security "restricted" on its namespace', () => {
    expect(named(objects, 'Namespace', 'agentchassis-dev').metadata.labels).toMatchObject({
      'pod-security.kubernetes.io/enforce': 'restricted',
    });
    for (const o of objects.filter((x) => x.kind !== 'Namespace'))
      expect(o.metadata.namespace, `${o.kind}/${o.metadata.name}`).toBe('agentchassis-dev');
  });
});

describe('overlays/prod', () => {
  const objects = renderOverlay('prod');
  const hpas = ofKind<Hpa>(objects, 'HorizontalPodAutoscaler');

  it('runs several replicas of every service', () => {
    for (const name of SERVICE_NAMES) {
      const w = deployment(objects, name);
      const hpa = hpas.find((h) => h.spec.scaleTargetRef.name === name);
      expect(hpa?.spec.minReplicas ?? w.spec.replicas, name).toBeGreaterThanOrEqual(2);
    }
    expect(deployment(objects, 'gateway').spec.replicas).toBeGreaterThanOrEqual(3);
  });

  it('autoscales the function-runner and the agent-executor on CPU', () => {
    expect(hpas.map((h) => h.spec.scaleTargetRef.name).sort()).toEqual(['agent-executor', 'function-runner']);
    for (const hpa of hpas) {
      expect(hpa.spec.metrics).toEqual([
        {
          type: 'Resource',
          resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } },
        },
      ]);
      expect(hpa.spec.maxReplicas).toBeGreaterThan(hpa.spec.minReplicas);
      expect(deployment(objects, hpa.spec.scaleTargetRef.name).spec.replicas).toBeUndefined();
    }
  });

  it('renders no Secret: secret values never live in the repository', () => {
    expect(ofKind(objects, 'Secret')).toEqual([]);
  });

  it('runs no data store of its own and points at operator-managed ones', () => {
    expect(ofKind(objects, 'StatefulSet')).toEqual([]);
    const services = ofKind(objects, 'Service').map((s) => s.metadata.name);
    const config = serviceConfig(objects, 'scheduler');
    for (const url of [config.nats.url, config.redis.url]) expect(services).not.toContain(hostOf(url));
  });

  it('pulls pinned release images from a registry', () => {
    const images = workloads(objects).flatMap((w) =>
      [...(podSpec(w).initContainers ?? []), ...podSpec(w).containers].map((c) => c.image!),
    );
    for (const image of images)
      expect(image).toMatch(/^[a-z0-9.-]+\.[a-z]+\/agentchassis\/[a-z-]+:\d+\.\d+\.\d+$/);
  });

  it('lets the runners reach NATS in its own namespace only', () => {
    const peer = named<NetworkPolicy>(objects, 'NetworkPolicy', 'function-runner').spec.egress![0].to![0];
    expect(peer.namespaceSelector).toEqual({ matchLabels: { 'kubernetes.io/metadata.name': 'nats' } });
    expect(hostOf(serviceConfig(objects, 'function-runner').nats.url)).toMatch(/\.nats\.svc\./);
  });

  it('serves the gateway through an Ingress with TLS', () => {
    const ingress = named<{ spec: { tls: { hosts: string[] }[]; rules: { host: string }[] } }>(
      objects,
      'Ingress',
      'gateway',
    );
    expect(ingress.spec.tls[0].hosts).toEqual([ingress.spec.rules[0].host]);
  });
});

describe('components/nats-creds', () => {
  const objects: K8sObject[] = renderWithComponents('prod', ['nats-creds']);

  it('connects each service with its own NATS credentials file instead of a password', () => {
    for (const name of SERVICE_NAMES) {
      const w = deployment(objects, name);
      const config = serviceConfig(objects, name);
      expect(config.nats.password, name).toBeUndefined();
      expect(config.nats.user, name).toBeUndefined();
      const mount = mainContainer(w).volumeMounts!.find((m) =>
        config.nats.creds_file!.startsWith(`${m.mountPath}/`),
      );
      expect(mount?.readOnly, name).toBe(true);
      const volume = podSpec(w).volumes!.find((v) => v.name === mount!.name)!;
      expect(volume.secret?.items, name).toEqual([{ key: `${name}.creds`, path: 'nats.creds' }]);
    }
  });
});
