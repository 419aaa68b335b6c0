import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SERVICE_NAMES, type ServiceName } from '@app/contracts';
import { type NatsServer, startNatsServer } from './nats-server';
import { REPO_ROOT } from './service-process';

/** The variable deploy/nats/auth.conf reads each service's password from. */
export const NATS_PASSWORD_VARIABLES: Record<ServiceName, string> = {
  gateway: 'NATS_GATEWAY_PASSWORD',
  'agent-executor': 'NATS_EXECUTOR_PASSWORD',
  'function-runner': 'NATS_RUNNER_PASSWORD',
  scheduler: 'NATS_SCHEDULER_PASSWORD',
};

export interface NatsWithUsers extends NatsServer {
  /** The environment that connects a service as its own user (`NATS_URL`, `NATS_USER`, `NATS_PASSWORD`). */
  envOf(service: ServiceName): Record<string, string>;
  /** The lines in which the server refused someone (a permission or an authorization violation). */
  violations(): string[];
}

/**
 * A nats-server of the test's own with JetStream and the shipped users and permissions
 * (deploy/nats/auth.conf, included as deploy/nats/nats.conf includes it), on a free port.
 */
export async function startNatsWithUsers(): Promise<NatsWithUsers> {
  const passwords = Object.fromEntries(SERVICE_NAMES.map((s) => [s, `test-${s}-${process.pid}`]));
  const server = await startNatsServer({
    config: 'max_payload: 8MB\ninclude ./auth.conf\n',
    files: { 'auth.conf': readFileSync(join(REPO_ROOT, 'deploy/nats/auth.conf'), 'utf8') },
    env: Object.fromEntries(SERVICE_NAMES.map((s) => [NATS_PASSWORD_VARIABLES[s], passwords[s]])),
  });
  return {
    ...server,
    envOf: (service) => ({ NATS_URL: server.url, NATS_USER: service, NATS_PASSWORD: passwords[service] }),
    violations: () =>
      server
        .log()
        .split('\n')
        .filter((line) => /Violation/.test(line)),
  };
}
