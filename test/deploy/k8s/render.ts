import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';

/** The rendered Kubernetes objects, as plain data. */
export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  [field: string]: unknown;
}

/** Resolved from this file, without @app/testing (which loads Prisma and the database drivers). */
export const REPO_ROOT = resolve(__dirname, '../../..');
export const K8S_DIR = join(REPO_ROOT, 'deploy/k8s');
export const OVERLAYS = ['dev', 'prod'] as const;
export type Overlay = (typeof OVERLAYS)[number];

let kubectlChecked = false;

function requireKubectl(): void {
  if (kubectlChecked) return;
  // Rendering is the point of these tests: without kubectl they fail rather than skip.
  const probe = spawnSync('kubectl', ['version', '--client'], { stdio: 'ignore' });
  if (probe.error || probe.status !== 0) {
    throw new Error(
      'kubectl (with its built-in kustomize) is needed to render deploy/k8s: install the kubectl package',
    );
  }
  kubectlChecked = true;
}

/** `kubectl kustomize <dir>`: renders a kustomization offline into its objects. */
export function kustomize(dir: string): K8sObject[] {
  requireKubectl();
  const out = execFileSync('kubectl', ['kustomize', dir], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 16 << 20,
  });
  return parseAllDocuments(out).map((doc) => {
    if (doc.errors.length)
      throw new Error(`kubectl kustomize ${dir} printed invalid YAML: ${doc.errors[0].message}`);
    return doc.toJS() as K8sObject;
  });
}

const cache = new Map<string, K8sObject[]>();

/** An overlay of deploy/k8s/overlays, rendered once per test file. */
export function renderOverlay(overlay: Overlay): K8sObject[] {
  const key = `overlay:${overlay}`;
  if (!cache.has(key)) cache.set(key, kustomize(join(K8S_DIR, 'overlays', overlay)));
  return structuredClone(cache.get(key)!);
}

/** An overlay with components of deploy/k8s/components added, as a user's own overlay would. */
export function renderWithComponents(overlay: Overlay, components: string[]): K8sObject[] {
  const dir = mkdtempSync(join(tmpdir(), 'ac-k8s-'));
  try {
    const rel = (path: string) => relative(dir, path);
    writeFileSync(
      join(dir, 'kustomization.yaml'),
      [
        'apiVersion: kustomize.config.k8s.io/v1beta1',
        'kind: Kustomization',
        `resources: [${rel(join(K8S_DIR, 'overlays', overlay))}]`,
        `components: [${components.map((c) => rel(join(K8S_DIR, 'components', c))).join(', ')}]`,
      ].join('\n'),
    );
    return kustomize(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function ofKind<T = K8sObject>(objects: K8sObject[], kind: string): (K8sObject & T)[] {
  return objects.filter((o) => o.kind === kind) as (K8sObject & T)[];
}

export function named<T = K8sObject>(objects: K8sObject[], kind: string, name: string): K8sObject & T {
  const found = objects.find((o) => o.kind === kind && o.metadata.name === name);
  if (!found)
    throw new Error(
      `no ${kind} ${name} among ${objects.map((o) => `${o.kind}/${o.metadata.name}`).join(', ')}`,
    );
  return found as K8sObject & T;
}
