import { Type } from 'class-transformer';
import { IsIn, IsObject, IsOptional, ValidateNested } from 'class-validator';
import { ErrorBody } from './errors';

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

const STATES = ['ok', 'down'] as const;

/** `GET /health`: each part's state; a 503 adds an `unavailable` error naming what is down. */
export class HealthView {
  @IsIn(['ok', 'degraded']) status!: 'ok' | 'degraded';
  /** Every service by name: `ok` or `down`. */
  @IsObject() services!: Record<ServiceName, (typeof STATES)[number]>;
  @IsIn(STATES) nats!: (typeof STATES)[number];
  @IsIn(STATES) database!: (typeof STATES)[number];
  @IsIn(STATES) redis!: (typeof STATES)[number];
  /** The executor's model configuration; `unknown` while no executor answers. */
  @IsIn(['ok', 'not configured', 'unknown']) llm!: 'ok' | 'not configured' | 'unknown';
  @IsOptional() @ValidateNested() @Type(() => ErrorBody) error?: ErrorBody;
}

/** `GET /health/live`: the process answers. */
export class LivenessView {
  @IsIn(['ok']) status!: 'ok';
}
