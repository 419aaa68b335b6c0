export const SERVICE_NAMES = ['gateway', 'agent-executor', 'function-runner', 'scheduler'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

export interface PingReply {
  service: ServiceName;
  instance: string;
  version: string;
  uptime_s: number;
  /** Each dependency's state as the service sees it, e.g. `{ database: 'ok' }`. */
  checks: Record<string, 'ok' | 'down'>;
  /** What a service knows of its own configuration, e.g. the executor's `{ llm: { state: 'not configured', reason } }`. */
  states?: Record<string, ServiceState>;
}

export interface ServiceState {
  state: string;
  /** Why, when the state is not `ok`; never a secret. */
  reason?: string;
}
