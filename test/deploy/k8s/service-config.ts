import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { type Env, loadConfig, type PlatformConfig } from '@app/config';
import { REPO_ROOT } from './render';
import type { K8sObject } from './render';
import { type Container, deployment, mainContainer, podSpec, type Workload } from './workloads';

/** What the pod's secrets hold when the overlay does not render them (prod): shapes, not values. */
const PLACEHOLDERS: Record<string, string> = {
  DATABASE_URL: 'postgresql://agentchassis:placeholder@postgres.invalid:5432/agentchassis',
};

type DataObject = K8sObject & { data?: Record<string, string> };

/** The ENV a Dockerfile target sets: the shared `runtime` stage's, then the target's own. */
export function dockerfileEnv(target: string): Env {
  const dockerfile = readFileSync(join(REPO_ROOT, 'deploy/Dockerfile'), 'utf8').replace(/\\\r?\n/g, ' ');
  const stages = dockerfile.split(/^FROM /m).slice(1);
  const stage = (name: string) => stages.find((s) => new RegExp(`^\\S+ AS ${name}\\s`).test(s)) ?? '';
  const env: Env = {};
  for (const text of [stage('runtime'), stage(target)]) {
    for (const [, line] of text.matchAll(/^ENV (.+)$/gm)) {
      for (const [, key, value] of line.matchAll(/(\w+)=(\S+)/g)) env[key] = value;
    }
  }
  return env;
}

function dataOf(
  objects: K8sObject[],
  kind: 'Secret' | 'ConfigMap',
  name: string,
): Record<string, string> | undefined {
  const found = objects.find((o) => o.kind === kind && o.metadata.name === name) as DataObject | undefined;
  if (!found) return undefined;
  const data = found.data ?? {};
  if (kind === 'ConfigMap') return data;
  return Object.fromEntries(
    Object.entries(data).map(([k, v]) => [k, Buffer.from(v.replace(/\s/g, ''), 'base64').toString('utf8')]),
  );
}

/**
 * The environment the container starts with: the image's ENV (Dockerfile `target`), then envFrom, then env. Secret
 * values come from the rendered Secret (dev) or a placeholder (prod); optional references to
 * what is not there are left out, as the kubelet does.
 */
export function containerEnv(objects: K8sObject[], container: Container, target: string): Env {
  const env: Env = { ...dockerfileEnv(target) };
  for (const source of container.envFrom ?? []) {
    const ref = source.secretRef ?? source.configMapRef;
    const data = ref?.name ? dataOf(objects, source.secretRef ? 'Secret' : 'ConfigMap', ref.name) : undefined;
    Object.assign(env, data ?? {});
  }
  for (const variable of container.env ?? []) {
    if (variable.value !== undefined) env[variable.name] = variable.value;
    const ref = variable.valueFrom?.secretKeyRef ?? variable.valueFrom?.configMapKeyRef;
    if (!ref?.name) continue;
    const data = dataOf(objects, variable.valueFrom?.secretKeyRef ? 'Secret' : 'ConfigMap', ref.name);
    const value =
      data?.[ref.key] ??
      (ref.optional ? undefined : (PLACEHOLDERS[ref.key] ?? `placeholder-${ref.key.toLowerCase()}`));
    if (value !== undefined) env[variable.name] = value;
  }
  return env;
}

/** The file that AC_CONFIG names, read from the ConfigMap volume mounted at its folder. */
export function mountedConfigFile(objects: K8sObject[], w: Workload, container: Container): string {
  const path = container.env?.find((e) => e.name === 'AC_CONFIG')?.value;
  if (!path) throw new Error(`${w.metadata.name} sets no AC_CONFIG`);
  const mount = container.volumeMounts?.find((m) => m.mountPath === dirname(path));
  const volume = podSpec(w).volumes?.find((v) => v.name === mount?.name);
  const file =
    volume?.configMap?.name && dataOf(objects, 'ConfigMap', volume.configMap.name)?.[basename(path)];
  if (!file) throw new Error(`${w.metadata.name}: nothing mounted at ${path}`);
  return file;
}

/** The configuration one service of the rendered overlay starts with, through the real loader. */
export function serviceConfig(objects: K8sObject[], name: string): PlatformConfig {
  const w = deployment(objects, name);
  const container = mainContainer(w);
  const dir = mkdtempSync(join(tmpdir(), 'ac-k8s-config-'));
  try {
    const file = join(dir, 'agentchassis.yaml');
    writeFileSync(file, mountedConfigFile(objects, w, container));
    return loadConfig({ ...containerEnv(objects, container, name), AC_CONFIG: file });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
