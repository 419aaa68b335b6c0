import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { K8S_DIR, type K8sObject, kustomize, OVERLAYS, renderOverlay, renderWithComponents } from './render';
import { schemaProblems, unknownFieldProblems } from './schema';
import { type Container, deployment } from './workloads';

const variants: [string, () => K8sObject[]][] = [
  ['base', () => kustomize(join(K8S_DIR, 'base'))],
  ...OVERLAYS.map((overlay): [string, () => K8sObject[]] => [
    `overlays/${overlay}`,
    () => renderOverlay(overlay),
  ]),
  ['overlays/prod + components/nats-creds', () => renderWithComponents('prod', ['nats-creds'])],
];

describe.each(variants)('deploy/k8s %s', (_name, render) => {
  const objects = render();

  it('renders with kubectl kustomize', () => {
    expect(objects.length).toBeGreaterThan(10);
    for (const object of objects)
      expect(object.metadata?.name, JSON.stringify(object).slice(0, 80)).toBeTruthy();
  });

  it('validates every object against the Kubernetes schemas', () => {
    expect(objects.flatMap(schemaProblems)).toEqual([]);
  });

  it('uses no field the Kubernetes schemas do not know', () => {
    expect(unknownFieldProblems(objects)).toEqual([]);
  });

  it('renders each object once', () => {
    const ids = objects.map((o) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });
});

describe('the schema validation itself', () => {
  const gateway = () => deployment(renderOverlay('dev'), 'gateway');

  it('rejects a value of the wrong type or format', () => {
    const broken = gateway();
    broken.spec.template.spec.containers[0].resources!.limits!.memory = '512 megabytes';
    expect(schemaProblems(broken).join()).toMatch(/limits\/memory/);
  });

  it('rejects a misspelt field, which the JSON schemas alone let through', () => {
    const broken = gateway();
    const container = broken.spec.template.spec.containers[0] as Container & { readinesProbe?: unknown };
    container.readinesProbe = container.readinessProbe;
    delete container.readinessProbe;
    expect(schemaProblems(broken)).toEqual([]);
    expect(unknownFieldProblems([broken])).toEqual([
      'Deployment/gateway: .spec.template.spec.containers[0].readinesProbe is not a field of IContainer',
    ]);
  });

  it('fails on a kind it has no schema for instead of skipping it', () => {
    const monitor = {
      apiVersion: 'monitoring.coreos.com/v1',
      kind: 'PodMonitor',
      metadata: { name: 'agentchassis' },
    };
    expect(schemaProblems(monitor)).toEqual([
      'PodMonitor/agentchassis: no Kubernetes schema for monitoring.coreos.com/v1 PodMonitor, so it cannot be validated',
    ]);
  });
});
