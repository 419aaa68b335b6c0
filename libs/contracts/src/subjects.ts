import type { ServiceName } from './health';

/** Every NATS subject the platform uses; nothing else spells a subject string. */
export const Subjects = {
  agentRun: 'agent.run',
  agentEvents: (runId: string) => `agent.events.${runId}`,
  fnExec: (name: string) => `fn.exec.${name}`,
  fnExecAll: 'fn.exec.>',
  fnCatalog: 'fn.catalog',
  fnAnnounce: 'fn.announce',
  servicePing: (service: ServiceName) => `svc.ping.${service}`,
} as const;

/** Queue groups: members of one group share the load of a subject. */
export const QueueGroups = {
  functionProviders: (provider: string) => `fn.${provider}`,
  executor: 'agent-executor',
  scheduler: 'scheduler',
} as const;
