import type { ServiceName } from './health';

/**
 * Every NATS subject the platform uses; nothing else spells a subject string. A request/reply
 * subject is asked and served through its route in `Routes`, which adds its types and timeout.
 */
export const Subjects = {
  agentRun: 'agent.run',
  agentEvents: (runId: string) => `agent.events.${runId}`,
  /**
   * Publish `RunResumedEvent`: an executor took a run over. One subject for every run, so a
   * gateway waiting on runs listens once; under `agent.events.` (run ids start with `run_`).
   */
  agentRunResumed: 'agent.events.resumed',
  /** Requests any executor answers (queue group `agent-executor`): runs, sessions, memory, agent profiles. */
  agentRunGet: 'agent.runs.get',
  agentRunList: 'agent.runs.list',
  agentRunCancel: 'agent.runs.cancel',
  agentRunApprove: 'agent.runs.approve',
  agentRunReject: 'agent.runs.reject',
  /** A new run from a run's journal up to a step, live from there (any executor). */
  agentRunFork: 'agent.runs.fork',
  /** What one model step of a run sent and got back, rebuilt from its journal. */
  agentRunStepMessages: 'agent.runs.step-messages',
  /** Runs, tokens, cost and latency over a window, by agent and by key. */
  agentUsageStats: 'agent.usage.stats',
  /**
   * Stop or resume a run in flight, at the executor instance holding it (the run's `lease_owner`):
   * one subscription per executor, no queue group, so a dead owner is "no responders" at once.
   */
  agentRunInterrupt: (executor: string) => `agent.interrupt.${subjectToken(executor)}`,
  /** A message for a run in flight, at the executor instance holding it (as the interrupt). */
  agentRunInbox: (executor: string) => `agent.inbox.${subjectToken(executor)}`,
  /** Where a chat message goes: into a running run, or a new run (any executor). */
  agentMessageRoute: 'agent.messages.route',
  agentSessionGet: 'agent.sessions.get',
  agentSessionList: 'agent.sessions.list',
  agentSessionDelete: 'agent.sessions.delete',
  agentMemorySearch: 'agent.memory.search',
  agentMemoryForget: 'agent.memory.forget',
  agentProfileList: 'agent.profiles.list',
  agentProfileGet: 'agent.profiles.get',
  agentProfileCreate: 'agent.profiles.create',
  agentProfileUpdate: 'agent.profiles.update',
  agentProfileDelete: 'agent.profiles.delete',
  /** Publish `AgentProfileChanged`: a profile made over the API changed; every executor forgets its copy. */
  agentProfileChanged: 'agent.profiles.changed',
  fnExec: (name: string) => `fn.exec.${name}`,
  fnExecAll: 'fn.exec.>',
  fnCatalog: 'fn.catalog',
  fnAnnounce: 'fn.announce',
  /** Publish `FnCancel`: the provider running that call aborts it. Every provider listens. */
  fnCancel: 'fn.cancel',
  /** Request `FnInvokeRequest` → `FnExecReply`: the gateway asks an executor to run a function. */
  fnInvoke: 'fn.invoke',
  /** Request `FunctionCallBatch`: providers hand finished calls to a recorder (queue group). */
  fnCallsRecord: 'fn.calls.record',
  servicePing: (service: ServiceName) => `svc.ping.${service}`,
  schedulerDelayCreate: 'scheduler.delays.create',
  schedulerDelayList: 'scheduler.delays.list',
  schedulerDelayGet: 'scheduler.delays.get',
  schedulerDelayCancel: 'scheduler.delays.cancel',
  schedulerCronCreate: 'scheduler.crons.create',
  schedulerCronList: 'scheduler.crons.list',
  schedulerCronGet: 'scheduler.crons.get',
  schedulerCronDelete: 'scheduler.crons.delete',
  /**
   * Where a service's replies arrive (its connection's inbox prefix): one prefix per service, so
   * the bus's permissions let each read its own replies only, and answer just the services that
   * ask it something.
   */
  inbox: (service: ServiceName) => `_INBOX.${service}`,
} as const;

/** A subject token matching any one token, to name a family of subjects (`agent.interrupt.*`). */
export const ANY_TOKEN = '*';

/** Queue groups: members of one group share the load of a subject. */
export const QueueGroups = {
  functionProviders: (provider: string) => `fn.${provider}`,
  executor: 'agent-executor',
  functionCallRecorders: 'fn-call-recorders',
  scheduler: 'scheduler',
} as const;

/** An instance id (`<host>-<pid>-<random>`) as one subject token: a host name may hold dots. */
function subjectToken(value: string): string {
  return value === ANY_TOKEN ? value : value.replace(/[^A-Za-z0-9_-]/g, '_');
}
