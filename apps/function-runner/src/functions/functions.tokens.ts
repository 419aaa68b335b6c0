import type { FunctionContext } from '@app/functions';

/** A custom function's network access: request in, http_request's result data out. */
export type HttpBridge = (request: unknown, ctx: FunctionContext) => Promise<unknown>;
export const HTTP_BRIDGE = Symbol('HTTP_BRIDGE');

/** The runner's one probe of network isolation (`unshare -n`), shared by the sandbox and MCP servers. */
export const NETWORK_ISOLATION = Symbol('NETWORK_ISOLATION');
