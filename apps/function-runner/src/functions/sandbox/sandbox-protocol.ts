/** Messages between the runner and a sandbox process (JSON over the IPC channel). */
import type { FunctionCaller } from '@app/functions';

export interface PluginDescription {
  name?: unknown;
  description?: unknown;
  parameters?: unknown;
  timeout_ms?: unknown;
  idempotent?: unknown;
}

export interface CallContext {
  caller: FunctionCaller;
  traceId?: string;
  deadline: number;
}

export type ParentMessage =
  | { type: 'load'; id: number; file: string }
  | { type: 'call'; id: number; file: string; params: Record<string, unknown>; context: CallContext }
  | { type: 'http-reply'; id: number; ok: true; value: unknown }
  | { type: 'http-reply'; id: number; ok: false; message: string };

export type ChildMessage =
  | { type: 'ready' }
  | { type: 'loaded'; id: number; definition: PluginDescription }
  | { type: 'result'; id: number; value: unknown }
  | { type: 'failed'; id: number; message: string }
  | { type: 'http'; id: number; request: unknown }
  | { type: 'log'; level: 'debug' | 'info' | 'warn' | 'error'; message: string; fields?: unknown }
  | { type: 'crashed'; message: string };
