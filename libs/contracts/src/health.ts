import { Type } from 'class-transformer';
import {
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  ValidateNested,
} from 'class-validator';
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
  /** An MCP server's: how many tools it serves. */
  tools?: number;
}

/** How a function runner names each mounted MCP server's state in its ping's `states`. */
export const MCP_STATE_PREFIX = 'mcp:';

/** An MCP server mounted by the function runners, as one of them sees it. */
export class McpServerView {
  @IsString() name!: string;
  @IsIn(['ready', 'connecting', 'down']) state!: 'ready' | 'connecting' | 'down';
  /** Its tools served as functions (after renaming or refusing collisions). */
  @IsInt() tools!: number;
  /** Why it is down. */
  @IsOptional() @IsString() reason?: string;
}

/** `GET /api/v1/mcp/servers`. */
export class McpServerList {
  @IsArray() @ValidateNested({ each: true }) @Type(() => McpServerView) servers!: McpServerView[];
  /** False when no function runner answered (the list is then empty, not known to be). */
  @IsBoolean() answered!: boolean;
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
