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
  @IsOptional() @ValidateNested() @Type(() => ErrorBody) error?: ErrorBody;
}

/** `GET /health/live`: the process answers. */
export class LivenessView {
  @IsIn(['ok']) status!: 'ok';
}
