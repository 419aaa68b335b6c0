import { describe, expect, it } from 'vitest';
import {
  FORBIDDEN_ADDRESSES,
  ipBlockAllows,
  type NetworkPolicy,
  policiesSelecting,
  runnerNetworkProblems,
} from './network';
import { named, OVERLAYS, renderOverlay } from './render';
import { serviceConfig } from './service-config';
import {
  allContainers,
  deployment,
  envValue,
  hardeningProblems,
  mainContainer,
  maxOldSpaceMb,
  MiB,
  podLabels,
  podSpec,
  quantity,
  secretReferences,
} from './workloads';

/** Runner process (measured 117 MiB idle, ~150 MiB with tracing) plus headroom. */
const RUNNER_MIB = 160;
/** What a sandbox process adds to its old-space heap at worst: measured peaks of 168-227 MiB at 128 MB. */
const SANDBOX_OVERHEAD_MIB = 112;

describe.each(OVERLAYS)('overlays/%s: the function-runner', (overlay) => {
  const objects = renderOverlay(overlay);
  const runner = deployment(objects, 'function-runner');
  const pod = podSpec(runner);
  const container = mainContainer(runner);

  it('runs non-root on a read-only root filesystem, without capabilities or a service-account token', () => {
    expect(hardeningProblems(runner)).toEqual([]);
    expect(container.securityContext).toMatchObject({
      runAsNonRoot: true,
      readOnlyRootFilesystem: true,
      allowPrivilegeEscalation: false,
      privileged: false,
      capabilities: { drop: ['ALL'] },
    });
    expect(pod.securityContext?.seccompProfile?.type).toBe('RuntimeDefault');
    expect(pod.automountServiceAccountToken).toBe(false);
    const account = named<{ automountServiceAccountToken?: boolean }>(
      objects,
      'ServiceAccount',
      pod.serviceAccountName!,
    );
    expect(account.metadata.name).toBe('function-runner');
    expect(account.automountServiceAccountToken).toBe(false);
  });

  it('writes nowhere but its scratch emptyDir, and mounts custom functions read-only at FUNCTIONS_DIR', () => {
    const writable = container.volumeMounts!.filter((m) => !m.readOnly);
    expect(writable.map((m) => m.mountPath)).toEqual(['/tmp']);
    expect(pod.volumes?.find((v) => v.name === writable[0].name)?.emptyDir?.sizeLimit).toBeDefined();
    const dir = envValue(container, 'FUNCTIONS_DIR');
    expect(serviceConfig(objects, 'function-runner').functions.dir).toBe(dir);
    expect(container.volumeMounts?.find((m) => m.mountPath === dir)?.readOnly).toBe(true);
  });

  it('holds no database URL, LLM key or admin key', () => {
    const names = allContainers(runner).flatMap((c) => (c.env ?? []).map((e) => e.name));
    for (const secret of ['DATABASE_URL', 'LLM_API_KEY', 'AC_ADMIN_KEY']) {
      expect(names).not.toContain(secret);
      expect(secretReferences(runner).some((ref) => ref.endsWith(`/${secret}`))).toBe(false);
    }
    expect(secretReferences(runner).some((ref) => ref.endsWith('/*'))).toBe(false); // no envFrom of a whole Secret
    expect(pod.initContainers ?? []).toEqual([]);
  });

  it('lets the function-runner reach only NATS, DNS and public addresses on 80/443', () => {
    expect(runnerNetworkProblems(objects)).toEqual([]);
  });

  it('keeps its internet egress away from cluster, private and metadata addresses', () => {
    const blocks = policiesSelecting(objects, podLabels(runner))
      .flatMap((p) => p.spec.egress ?? [])
      .flatMap((rule) => rule.to ?? [])
      .flatMap((peer) => (peer.ipBlock ? [peer.ipBlock] : []));
    expect(blocks.some((b) => ipBlockAllows(b, '1.1.1.1'))).toBe(true);
    expect(blocks.some((b) => ipBlockAllows(b, '2606:4700:4700::1111'))).toBe(true);
    for (const address of FORBIDDEN_ADDRESSES)
      expect(
        blocks.some((b) => ipBlockAllows(b, address)),
        address,
      ).toBe(false);
  });

  it('sizes its memory limit for every sandbox process at its heap limit', () => {
    const { sandbox_workers: workers, sandbox_memory_mb: heap } = serviceConfig(
      objects,
      'function-runner',
    ).functions;
    const limit = quantity(container.resources?.limits?.memory) / MiB;
    expect(limit).toBeGreaterThanOrEqual(RUNNER_MIB + workers * (heap + SANDBOX_OVERHEAD_MIB));
    // The runner's own heap fits beside the sandboxes.
    expect(maxOldSpaceMb(container)! + workers * (heap + SANDBOX_OVERHEAD_MIB)).toBeLessThanOrEqual(limit);
  });
});

describe('the function-runner checks themselves', () => {
  const objects = () => renderOverlay('prod');

  it('notice a runner without its NetworkPolicy', () => {
    const open = objects().filter((o) => o.kind !== 'NetworkPolicy');
    expect(runnerNetworkProblems(open)).toEqual(['no NetworkPolicy selects the function-runner pods']);
  });

  it('notice egress that reaches the cloud metadata address', () => {
    const broken = objects();
    const egress = named<NetworkPolicy>(broken, 'NetworkPolicy', 'function-runner-http-egress');
    const block = egress.spec.egress![0].to![0].ipBlock!;
    block.except = block.except!.filter((cidr) => cidr !== '169.254.0.0/16');
    expect(runnerNetworkProblems(broken)).toEqual([
      'NetworkPolicy/function-runner-http-egress egress rule 0 reaches 169.254.169.254',
    ]);
  });

  it('notice egress to other pods of the cluster', () => {
    const broken = objects();
    const policy = named<NetworkPolicy>(broken, 'NetworkPolicy', 'function-runner');
    policy.spec.egress!.push({
      to: [{ podSelector: { matchLabels: { 'app.kubernetes.io/name': 'postgres' } } }],
      ports: [{ port: 5432 }],
    });
    expect(runnerNetworkProblems(broken)).toEqual([
      'NetworkPolicy/function-runner egress rule 2 reaches pods {"matchLabels":{"app.kubernetes.io/name":"postgres"}} in "its namespace"',
    ]);
  });

  it('notice a CIDR the API server would refuse', () => {
    const broken = objects();
    const block = named<NetworkPolicy>(broken, 'NetworkPolicy', 'function-runner-http-egress').spec.egress![0]
      .to![1].ipBlock!;
    block.except!.push('::ffff:0:0/96', 'fc00::1/7');
    expect(runnerNetworkProblems(broken)).toEqual([
      'NetworkPolicy/function-runner-http-egress egress rule 0: ::ffff:0:0/96 is IPv4-mapped',
      'NetworkPolicy/function-runner-http-egress egress rule 0: fc00::1/7 has host bits set',
    ]);
  });

  it('notice a runner with a database URL or a writable root', () => {
    const broken = objects();
    const runner = deployment(broken, 'function-runner');
    mainContainer(runner).env!.push({
      name: 'DATABASE_URL',
      valueFrom: { secretKeyRef: { name: 'agentchassis-secrets', key: 'DATABASE_URL' } },
    });
    mainContainer(runner).securityContext!.readOnlyRootFilesystem = false;
    expect(secretReferences(runner)).toContain('agentchassis-secrets/DATABASE_URL');
    expect(hardeningProblems(runner)).toEqual([
      'Deployment/function-runner container function-runner can write its root filesystem',
    ]);
  });
});
