import ipaddr from 'ipaddr.js';
import type { INetworkPolicyPeer } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicyPeer';
import type { INetworkPolicyPort } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicyPort';
import type { INetworkPolicySpec } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicySpec';
import type { K8sObject } from './render';
import { deployment, podLabels, selects } from './workloads';

export type NetworkPolicy = K8sObject & { spec: INetworkPolicySpec };

/** Addresses untrusted code must never reach: cloud metadata, loopback, private and cluster ranges. */
export const FORBIDDEN_ADDRESSES = [
  '169.254.169.254', // AWS, GCP, Azure, OpenStack metadata
  '100.100.100.200', // Alibaba metadata
  'fd00:ec2::254', // AWS metadata over IPv6
  '127.0.0.1',
  '::1',
  '0.0.0.0',
  '10.96.0.1', // a typical Service CIDR
  '10.244.0.1', // a typical pod CIDR
  '172.16.0.1',
  '192.168.0.1',
  '100.64.0.1',
  'fe80::1',
  'fd12:3456::1', // an IPv6 pod range
];

const NATS = { label: 'nats', ports: [4222] };
const DNS = { label: 'kube-dns', ports: [53] };
const WEB_PORTS = [80, 443];

export function policiesSelecting(objects: K8sObject[], labels: Record<string, string>): NetworkPolicy[] {
  return (objects.filter((o) => o.kind === 'NetworkPolicy') as NetworkPolicy[]).filter((p) => {
    const selector = p.spec.podSelector?.matchLabels ?? {};
    return Object.keys(selector).length === 0 || selects(selector, labels);
  });
}

function portsOf(ports: INetworkPolicyPort[] | undefined): (number | string)[] {
  return (ports ?? []).map((p) => p.port ?? 'any');
}

/** Whether an address passes an ipBlock peer: inside its CIDR and outside every `except`. */
export function ipBlockAllows(block: { cidr: string; except?: string[] }, address: string): boolean {
  const ip = ipaddr.parse(address);
  const inside = (cidr: string) => {
    const range = ipaddr.parseCIDR(cidr);
    return range[0].kind() === ip.kind() && ip.match(range);
  };
  return inside(block.cidr) && !(block.except ?? []).some(inside);
}

/** CIDRs the API server accepts under strict validation: canonical, no IPv4-mapped IPv6, excepts inside. */
export function cidrProblems(block: { cidr: string; except?: string[] }): string[] {
  const problems: string[] = [];
  for (const cidr of [block.cidr, ...(block.except ?? [])]) {
    if (!ipaddr.isValidCIDR(cidr)) {
      problems.push(`${cidr} is not a CIDR`);
      continue;
    }
    const [address, bits] = ipaddr.parseCIDR(cidr);
    const network =
      address.kind() === 'ipv4'
        ? ipaddr.IPv4.networkAddressFromCIDR(cidr)
        : ipaddr.IPv6.networkAddressFromCIDR(cidr);
    if (network.toNormalizedString() !== address.toNormalizedString())
      problems.push(`${cidr} has host bits set`);
    if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress())
      problems.push(`${cidr} is IPv4-mapped`);
    if (
      cidr !== block.cidr &&
      !(ipBlockAllows({ cidr: block.cidr }, address.toString()) && bits >= ipaddr.parseCIDR(block.cidr)[1])
    ) {
      problems.push(`${cidr} is not inside ${block.cidr}`);
    }
  }
  return problems;
}

function peerProblems(where: string, peer: INetworkPolicyPeer, ports: (number | string)[]): string[] {
  const allowedPorts = (allowed: number[]) =>
    ports.every((p) => typeof p === 'number' && allowed.includes(p));
  if (peer.ipBlock) {
    const problems = cidrProblems(peer.ipBlock).map((p) => `${where}: ${p}`);
    for (const address of FORBIDDEN_ADDRESSES) {
      if (ipBlockAllows(peer.ipBlock, address)) problems.push(`${where} reaches ${address}`);
    }
    if (!allowedPorts(WEB_PORTS))
      problems.push(`${where} opens ports ${ports.join(', ')} to addresses outside the cluster`);
    return problems;
  }
  const name =
    peer.podSelector?.matchLabels?.['app.kubernetes.io/name'] ?? peer.podSelector?.matchLabels?.['k8s-app'];
  const target = [NATS, DNS].find((t) => t.label === name);
  if (!target)
    return [
      `${where} reaches pods ${JSON.stringify(peer.podSelector ?? {})} in ${JSON.stringify(peer.namespaceSelector ?? 'its namespace')}`,
    ];
  return allowedPorts(target.ports) ? [] : [`${where} opens ports ${ports.join(', ')} to ${target.label}`];
}

/**
 * What the function-runner's pods may reach, from every NetworkPolicy that selects them: NATS on
 * its client port, cluster DNS, and (for http_request) public addresses on 80/443. Ingress: only
 * the metrics port.
 */
export function runnerNetworkProblems(objects: K8sObject[], name = 'function-runner'): string[] {
  const labels = podLabels(deployment(objects, name));
  const policies = policiesSelecting(objects, labels);
  if (!policies.length) return [`no NetworkPolicy selects the ${name} pods`];
  const problems: string[] = [];
  const restricts = (type: 'Egress' | 'Ingress') => policies.some((p) => p.spec.policyTypes?.includes(type));
  if (!restricts('Egress')) problems.push(`no NetworkPolicy restricts the ${name}'s egress`);
  if (!restricts('Ingress')) problems.push(`no NetworkPolicy restricts the ${name}'s ingress`);
  let reachesNats = false;
  for (const policy of policies) {
    policy.spec.egress?.forEach((rule, i) => {
      const where = `NetworkPolicy/${policy.metadata.name} egress rule ${i}`;
      const ports = portsOf(rule.ports);
      if (!rule.to?.length) problems.push(`${where} allows every destination`);
      if (!ports.length || ports.includes('any')) problems.push(`${where} allows every port`);
      for (const peer of rule.to ?? []) {
        problems.push(...peerProblems(where, peer, ports));
        if (peer.podSelector?.matchLabels?.['app.kubernetes.io/name'] === NATS.label) reachesNats = true;
      }
    });
    policy.spec.ingress?.forEach((rule, i) => {
      const ports = portsOf(rule.ports);
      if (!ports.length || ports.some((p) => p !== 'metrics' && p !== 9464)) {
        problems.push(
          `NetworkPolicy/${policy.metadata.name} ingress rule ${i} admits more than the metrics port`,
        );
      }
    });
  }
  if (!reachesNats) problems.push(`the ${name} cannot reach NATS`);
  return problems;
}
