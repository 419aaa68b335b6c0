export const SERVICE_NAMES = ['gateway', 'agent-executor', 'function-runner', 'scheduler'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

export interface PingReply {
  service: ServiceName;
  instance: string;
  version: string;
  uptime_s: number;
  /** Each dependency's state as the service sees it, e.g. `{ database: 'ok' }`. */
  checks: Record<string, 'ok' | 'down'>;
}
