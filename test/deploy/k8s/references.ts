import type { K8sObject } from './render';
import { allContainers, id, podLabels, podSpec, selects, type Workload, workloads } from './workloads';

type Spec<T> = K8sObject & { spec: T };
type ServiceSpec = {
  selector?: Record<string, string>;
  clusterIP?: string;
  ports: { name?: string; port: number; targetPort?: number | string }[];
};
type IngressSpec = {
  rules?: {
    http?: { paths: { backend: { service?: { name: string; port: { name?: string; number?: number } } } }[] };
  }[];
};

const has = (objects: K8sObject[], kind: string, name: string) =>
  objects.some((o) => o.kind === kind && o.metadata.name === name);

/**
 * Every name one object uses for another resolves within the rendered overlay, or names one of
 * the `external` Secrets the operator creates: ConfigMaps, Secrets (and their keys), service
 * accounts, Service selectors and target ports, Ingress backends, autoscaler targets, budget and
 * policy selectors.
 */
export function referenceProblems(objects: K8sObject[], external: string[] = []): string[] {
  const secretKeys = (name: string) =>
    Object.keys(
      (objects.find((o) => o.kind === 'Secret' && o.metadata.name === name) as K8sObject & { data?: object })
        ?.data ?? {},
    );
  const problems: string[] = [];
  const missing = (where: string, kind: string, name: string, optional?: boolean) => {
    if (optional || has(objects, kind, name) || (kind === 'Secret' && external.includes(name))) return;
    problems.push(`${where} refers to ${kind} ${name}, which is neither rendered nor external`);
  };
  const all = workloads(objects);
  const services = objects.filter((o) => o.kind === 'Service') as Spec<ServiceSpec>[];
  const found = { objects, all, services, problems, missing, secretKeys };
  podProblems(found);
  serviceProblems(found);
  routingProblems(found);
  return problems;
}

/** What one pass over the rendered objects finds, and how it tells a missing reference. */
interface Found {
  objects: K8sObject[];
  all: Workload[];
  services: Spec<ServiceSpec>[];
  problems: string[];
  missing: (where: string, kind: string, name: string, optional?: boolean) => void;
  secretKeys: (name: string) => string[];
}

/** Each pod's service account, volumes, mounts, and the ConfigMaps and Secrets (and keys) its containers read. */
function podProblems({ objects, all, problems, missing, secretKeys }: Found): void {
  for (const w of all) {
    const pod = podSpec(w);
    const claims = (
      (w.spec as { volumeClaimTemplates?: { metadata: { name: string } }[] }).volumeClaimTemplates ?? []
    ).map((t) => t.metadata.name);
    const volumes = [...(pod.volumes ?? []).map((v) => v.name), ...claims];
    if (pod.serviceAccountName) missing(id(w), 'ServiceAccount', pod.serviceAccountName);
    for (const v of pod.volumes ?? []) {
      if (v.configMap?.name)
        missing(`${id(w)} volume ${v.name}`, 'ConfigMap', v.configMap.name, v.configMap.optional);
      if (v.secret?.secretName)
        missing(`${id(w)} volume ${v.name}`, 'Secret', v.secret.secretName, v.secret.optional);
    }
    for (const c of allContainers(w)) {
      const where = `${id(w)} container ${c.name}`;
      for (const mount of c.volumeMounts ?? []) {
        if (!volumes.includes(mount.name)) problems.push(`${where} mounts unknown volume ${mount.name}`);
      }
      for (const from of c.envFrom ?? []) {
        if (from.secretRef?.name) missing(where, 'Secret', from.secretRef.name, from.secretRef.optional);
        if (from.configMapRef?.name)
          missing(where, 'ConfigMap', from.configMapRef.name, from.configMapRef.optional);
      }
      for (const e of c.env ?? []) {
        const secret = e.valueFrom?.secretKeyRef;
        if (secret?.name) {
          missing(`${where} env ${e.name}`, 'Secret', secret.name, secret.optional);
          if (
            !secret.optional &&
            has(objects, 'Secret', secret.name) &&
            !secretKeys(secret.name).includes(secret.key)
          ) {
            problems.push(
              `${where} env ${e.name} needs key ${secret.key}, which Secret ${secret.name} lacks`,
            );
          }
        }
        const config = e.valueFrom?.configMapKeyRef;
        if (config?.name) missing(`${where} env ${e.name}`, 'ConfigMap', config.name, config.optional);
      }
    }
  }
}

/** Each Service selects pods that serve its target ports; a StatefulSet has its headless Service. */
function serviceProblems({ all, services, problems }: Found): void {
  for (const service of services) {
    const targets = all.filter((w) => selects(service.spec.selector, podLabels(w)));
    if (!targets.length) problems.push(`${id(service)} selects no pods`);
    for (const port of service.spec.ports) {
      const target = port.targetPort ?? port.port;
      const served = targets.some((w) =>
        podSpec(w).containers.some((c) =>
          c.ports?.some((p) => (typeof target === 'string' ? p.name === target : p.containerPort === target)),
        ),
      );
      if (targets.length && !served)
        problems.push(
          `${id(service)} port ${port.name ?? port.port} targets ${target}, which its pods do not declare`,
        );
    }
  }

  for (const set of all.filter((w) => w.kind === 'StatefulSet') as (Workload & {
    spec: { serviceName?: string };
  })[]) {
    const governing = services.find((s) => s.metadata.name === set.spec.serviceName);
    if (governing?.spec.clusterIP !== 'None') problems.push(`${id(set)} has no headless governing Service`);
  }
}

/** Ingress backends, autoscaler targets, budget and policy selectors all point at what is rendered. */
function routingProblems({ objects, all, services, problems }: Found): void {
  for (const ingress of objects.filter((o) => o.kind === 'Ingress') as Spec<IngressSpec>[]) {
    for (const path of (ingress.spec.rules ?? []).flatMap((r) => r.http?.paths ?? [])) {
      const backend = path.backend.service;
      const service = services.find((s) => s.metadata.name === backend?.name);
      if (!service) problems.push(`${id(ingress)} routes to unknown Service ${backend?.name}`);
      else if (
        !service.spec.ports.some((p) => p.name === backend?.port.name || p.port === backend?.port.number)
      ) {
        problems.push(`${id(ingress)} routes to a port Service ${service.metadata.name} does not have`);
      }
    }
  }

  for (const hpa of objects.filter((o) => o.kind === 'HorizontalPodAutoscaler') as Spec<{
    scaleTargetRef: { kind: string; name: string };
  }>[]) {
    const target = all.find(
      (w) => w.kind === hpa.spec.scaleTargetRef.kind && w.metadata.name === hpa.spec.scaleTargetRef.name,
    );
    if (!target)
      problems.push(
        `${id(hpa)} scales unknown ${hpa.spec.scaleTargetRef.kind} ${hpa.spec.scaleTargetRef.name}`,
      );
    // A `replicas` beside an autoscaler is reset by every apply, undoing what the autoscaler chose.
    else if (target.spec.replicas !== undefined)
      problems.push(`${id(target)} sets replicas although ${id(hpa)} scales it`);
  }

  for (const kind of ['PodDisruptionBudget', 'NetworkPolicy']) {
    for (const object of objects.filter((o) => o.kind === kind) as Spec<{
      selector?: { matchLabels?: Record<string, string> };
      podSelector?: { matchLabels?: Record<string, string> };
    }>[]) {
      const selector = (object.spec.selector ?? object.spec.podSelector)?.matchLabels;
      if (!all.some((w) => selects(selector, podLabels(w)))) problems.push(`${id(object)} selects no pods`);
    }
  }
}
