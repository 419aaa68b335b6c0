import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IPodSpec } from 'kubernetes-models/v1/PodSpec';
import type { IProbe } from 'kubernetes-models/v1/Probe';
import type { K8sObject } from './render';

/** A Deployment or StatefulSet: what the checks below need of it. */
export type Workload = K8sObject & {
  spec: {
    replicas?: number;
    selector: { matchLabels?: Record<string, string> };
    template: {
      metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
      spec: IPodSpec;
    };
  };
};

export type Container = IContainer;

export function workloads(objects: K8sObject[]): Workload[] {
  return objects.filter((o) => o.kind === 'Deployment' || o.kind === 'StatefulSet') as Workload[];
}

export function deployment(objects: K8sObject[], name: string): Workload {
  const found = objects.find((o) => o.kind === 'Deployment' && o.metadata.name === name);
  if (!found) throw new Error(`no Deployment ${name}`);
  return found as Workload;
}

export const podSpec = (w: Workload): IPodSpec => w.spec.template.spec;
export const podLabels = (w: Workload): Record<string, string> => w.spec.template.metadata?.labels ?? {};
export const mainContainer = (w: Workload): Container => podSpec(w).containers[0];
export const allContainers = (w: Workload): Container[] => [
  ...(podSpec(w).initContainers ?? []),
  ...podSpec(w).containers,
];
export const id = (o: K8sObject): string => `${o.kind}/${o.metadata.name}`;

export function envValue(container: Container, name: string): string | undefined {
  return container.env?.find((e) => e.name === name)?.value;
}

/** Whether `selector` (matchLabels) selects a pod with `labels`. */
export function selects(
  selector: Record<string, string> | undefined,
  labels: Record<string, string>,
): boolean {
  return (
    !!selector &&
    Object.keys(selector).length > 0 &&
    Object.entries(selector).every(([k, v]) => labels[k] === v)
  );
}

// ---------------------------------------------------------------------------------------------
// Quantities

const BINARY: Record<string, number> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40 };
const DECIMAL: Record<string, number> = { m: 1e-3, '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12 };

/** A Kubernetes quantity ("500m", "1280Mi", "2") as a number of base units (cores, bytes). */
export function quantity(value: string | number | undefined): number {
  if (value === undefined) return NaN;
  const match = /^(\d+(?:\.\d+)?)([KMGT]i|[mkMGT])?$/.exec(String(value));
  if (!match) return NaN;
  const unit = match[2] ?? '';
  return Number(match[1]) * (BINARY[unit] ?? DECIMAL[unit]);
}

export const MiB = 2 ** 20;

// ---------------------------------------------------------------------------------------------
// Checks. Each returns what is wrong, as readable lines; [] means fine.

/** Every workload's main container is probed for liveness and readiness, on a port it has. */
export function probeProblems(objects: K8sObject[]): string[] {
  return workloads(objects).flatMap((w) =>
    podSpec(w).containers.flatMap((c) => {
      const where = `${id(w)} container ${c.name}`;
      const problems: string[] = [];
      for (const kind of ['livenessProbe', 'readinessProbe'] as const) {
        const probe = c[kind];
        if (!probe) problems.push(`${where} has no ${kind}`);
        else problems.push(...probeTargetProblems(`${where} ${kind}`, probe, c));
      }
      if (c.startupProbe) problems.push(...probeTargetProblems(`${where} startupProbe`, c.startupProbe, c));
      return problems;
    }),
  );
}

function probeTargetProblems(where: string, probe: IProbe, container: Container): string[] {
  const port = probe.httpGet?.port ?? probe.tcpSocket?.port ?? probe.grpc?.port;
  if (port === undefined) return probe.exec?.command?.length ? [] : [`${where} has no handler`];
  const ports = container.ports ?? [];
  const known =
    typeof port === 'number'
      ? ports.some((p) => p.containerPort === port)
      : ports.some((p) => p.name === port);
  return known ? [] : [`${where} targets port ${port}, which the container does not declare`];
}

/** Every container, init containers included, requests CPU and memory and is limited in both. */
export function resourceProblems(objects: K8sObject[]): string[] {
  return workloads(objects).flatMap((w) =>
    allContainers(w).flatMap((c) => {
      const where = `${id(w)} container ${c.name}`;
      const { requests = {}, limits = {} } = c.resources ?? {};
      const problems: string[] = [];
      for (const resource of ['cpu', 'memory']) {
        if (requests[resource] === undefined) problems.push(`${where} requests no ${resource}`);
        if (limits[resource] === undefined) problems.push(`${where} has no ${resource} limit`);
        if (quantity(limits[resource]) < quantity(requests[resource]))
          problems.push(`${where} limits ${resource} below its request`);
      }
      return problems;
    }),
  );
}

/** Every image is pinned to a tag or digest, never `latest`. */
export function imageProblems(objects: K8sObject[]): string[] {
  return workloads(objects).flatMap((w) =>
    allContainers(w).flatMap((c) => {
      const image = c.image ?? '';
      const tag = image.includes('@') ? 'digest' : /:([^/:]+)$/.exec(image)?.[1];
      if (!tag) return [`${id(w)} container ${c.name} runs untagged image '${image}'`];
      return tag === 'latest' ? [`${id(w)} container ${c.name} runs ${image}`] : [];
    }),
  );
}

/**
 * What Pod Security "restricted" requires of a pod (the namespaces enforce it): non-root, the
 * runtime's seccomp profile, no privilege escalation, every capability dropped, no host access.
 */
export function restrictedProblems(objects: K8sObject[]): string[] {
  return workloads(objects).flatMap((w) => {
    const pod = podSpec(w);
    const problems: string[] = [];
    if (pod.hostNetwork || pod.hostPID || pod.hostIPC) problems.push(`${id(w)} shares a host namespace`);
    for (const volume of pod.volumes ?? [])
      if (volume.hostPath) problems.push(`${id(w)} mounts host path ${volume.hostPath.path}`);
    for (const c of allContainers(w)) {
      const where = `${id(w)} container ${c.name}`;
      const sc = c.securityContext ?? {};
      if (!(sc.runAsNonRoot ?? pod.securityContext?.runAsNonRoot))
        problems.push(`${where} may run as root (runAsNonRoot)`);
      if ((sc.runAsUser ?? pod.securityContext?.runAsUser) === 0) problems.push(`${where} runs as uid 0`);
      const seccomp = sc.seccompProfile?.type ?? pod.securityContext?.seccompProfile?.type;
      if (seccomp !== 'RuntimeDefault' && seccomp !== 'Localhost')
        problems.push(`${where} has no seccomp profile`);
      if (sc.allowPrivilegeEscalation !== false) problems.push(`${where} allows privilege escalation`);
      if (sc.privileged) problems.push(`${where} is privileged`);
      if (!sc.capabilities?.drop?.includes('ALL')) problems.push(`${where} keeps capabilities (drop ALL)`);
      if ((sc.capabilities?.add ?? []).some((cap) => cap !== 'NET_BIND_SERVICE'))
        problems.push(`${where} adds capabilities`);
      if (c.ports?.some((p) => p.hostPort)) problems.push(`${where} binds a host port`);
    }
    return problems;
  });
}

/**
 * The platform's own hardening, beyond "restricted": a read-only root filesystem (scratch on an
 * emptyDir), no service-account token, and no Docker-link environment variables.
 */
export function hardeningProblems(w: Workload): string[] {
  const pod = podSpec(w);
  const problems = restrictedProblems([w]);
  if (pod.automountServiceAccountToken !== false) problems.push(`${id(w)} mounts a service-account token`);
  if (pod.enableServiceLinks !== false) problems.push(`${id(w)} gets service links in its environment`);
  for (const c of allContainers(w)) {
    const where = `${id(w)} container ${c.name}`;
    if (c.securityContext?.readOnlyRootFilesystem !== true)
      problems.push(`${where} can write its root filesystem`);
    const tmp = c.volumeMounts?.find((m) => m.mountPath === '/tmp');
    const tmpVolume = pod.volumes?.find((v) => v.name === tmp?.name);
    if (!tmpVolume?.emptyDir) problems.push(`${where} has no emptyDir for /tmp`);
    else if (!tmpVolume.emptyDir.sizeLimit) problems.push(`${where} has an unbounded /tmp`);
  }
  return problems;
}

/** Seconds a container's preStop hook holds back SIGTERM. */
export function preStopSeconds(c: Container): number | undefined {
  const hook = c.lifecycle?.preStop;
  if (!hook) return undefined;
  if (hook.sleep) return hook.sleep.seconds;
  const command = hook.exec?.command ?? [];
  const sleep = command.findIndex((part) => part === 'sleep');
  return sleep >= 0 ? Number(command[sleep + 1]) : 0;
}

/**
 * A pod being removed gets its preStop, then SIGTERM, and must finish its longest piece of work
 * (`deadlineMs`) and drain NATS before the grace period ends: otherwise scaling down or a rollout
 * would cut runs or calls off.
 */
export function shutdownProblems(w: Workload, deadlineMs: number, drainMarginS = 10): string[] {
  const c = mainContainer(w);
  const preStop = preStopSeconds(c);
  if (preStop === undefined) return [`${id(w)} container ${c.name} has no preStop hook`];
  const grace = podSpec(w).terminationGracePeriodSeconds ?? 30;
  const needed = preStop + deadlineMs / 1000 + drainMarginS;
  return grace >= needed
    ? []
    : [
        `${id(w)} gives ${grace}s to terminate; ${preStop}s preStop + ${deadlineMs / 1000}s deadline + ${drainMarginS}s drain need ${needed}s`,
      ];
}

/** Keys of Secrets a workload's containers read, as `Secret/key` (envFrom as `Secret/*`). */
export function secretReferences(w: Workload): string[] {
  return allContainers(w).flatMap((c) => [
    ...(c.env ?? []).flatMap((e) =>
      e.valueFrom?.secretKeyRef ? [`${e.valueFrom.secretKeyRef.name}/${e.valueFrom.secretKeyRef.key}`] : [],
    ),
    ...(c.envFrom ?? []).flatMap((f) => (f.secretRef ? [`${f.secretRef.name}/*`] : [])),
  ]);
}

/** The heap cap NODE_OPTIONS gives V8, in MiB. */
export function maxOldSpaceMb(c: Container): number | undefined {
  const match = /--max-old-space-size=(\d+)/.exec(envValue(c, 'NODE_OPTIONS') ?? '');
  return match ? Number(match[1]) : undefined;
}
