/** Every NATS subject the platform uses; nothing else spells a subject string. */
export const Subjects = {
  agentRun: 'agent.run',
  agentEvents: (runId: string) => `agent.events.${runId}`,
  fnExec: (name: string) => `fn.exec.${name}`,
  fnCatalog: 'fn.catalog',
  fnAnnounce: 'fn.announce',
  servicePing: (service: string) => `svc.ping.${service}`,
} as const;
