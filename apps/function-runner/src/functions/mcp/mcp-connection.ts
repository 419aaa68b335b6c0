import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  ErrorCode,
  McpError,
  type Tool,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { McpServerConfig } from '@app/config';
import { FunctionFailedError, type FunctionResult, TimeoutError, UnavailableError } from '@app/contracts';
import type { Logger } from '@app/observability';
import { Backoff } from '@app/retry';
import { toFunctionResult, type ToolCallResult } from './mcp-tool-result';
import type { NetworkIsolation } from '../sandbox/network-isolation';
import { openTransport } from './mcp-transport';

/** Reconnects: 0.1 s doubling to 2 s. */
const RECONNECT = { firstMs: 100, maxMs: 2_000 };
const MAX_PAGES = 50;

type State = { kind: 'connecting' } | { kind: 'ready'; client: Client } | { kind: 'down'; reason: string };

/**
 * The one connection of this runner replica to one MCP server, shared by every caller. It is
 * re-established with backoff (a fresh Client and transport each time, so no stale session id or
 * "already connected" state survives) when a stdio server exits, when an http server forgets the
 * session, or when the server cannot be reached; meanwhile calls fail fast as `unavailable`.
 */
export class McpConnection {
  private state: State = { kind: 'down', reason: 'not connected yet' };
  private readonly backoff = new Backoff(RECONNECT);
  private retryTimer?: NodeJS.Timeout;
  private connecting?: Promise<void>;
  private closed = false;

  constructor(
    readonly server: McpServerConfig,
    private readonly isolation: NetworkIsolation,
    private readonly logger: Logger,
    /** Called with the (filtered) tool list after every connect and every list change. */
    private readonly onTools: (tools: Tool[]) => void,
  ) {}

  /** The first attempt; later ones run in the background. */
  start(): Promise<void> {
    return this.connect();
  }

  /** Where the connection stands, for the platform's health: ready, connecting, or down and why. */
  status(): { state: 'ready' | 'connecting' | 'down'; reason?: string } {
    const state = this.state;
    return state.kind === 'down' ? { state: 'down', reason: state.reason } : { state: state.kind };
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retryTimer);
    const state = this.state;
    this.state = { kind: 'down', reason: 'the runner is stopping' };
    if (state.kind !== 'ready') return;
    const transport = state.client.transport;
    // an http server is told the session is over, so it can free it at once
    if (transport instanceof StreamableHTTPClientTransport)
      await transport.terminateSession().catch(() => undefined);
    await state.client.close().catch(() => undefined);
  }

  /** The server's timeout caps every call: a caller may ask for less time, not more. */
  async call(tool: string, args: Record<string, unknown>, signal: AbortSignal, callerDeadline: number) {
    const deadline = Math.min(callerDeadline, Date.now() + this.server.timeout);
    const client = this.readyClient();
    try {
      return await this.callOn(client, tool, args, signal, deadline);
    } catch (err) {
      if (signal.aborted) throw signal.reason;
      const refused = refusedBeforeRunning(err);
      if (!refused) throw this.callError(client, err);
      // the server did not run the call: it no longer knows the session (or took back the token):
      // open a new one and retry once
      this.lost(client, refused);
      if (this.state.kind !== 'ready') await this.connect();
      return this.callOn(this.readyClient(), tool, args, signal, deadline).catch((again: unknown) => {
        throw signal.aborted ? signal.reason : this.callError(undefined, again);
      });
    }
  }

  private async callOn(
    client: Client,
    tool: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
    deadline: number,
  ): Promise<FunctionResult> {
    // the SDK sends notifications/cancelled when the signal aborts or its own timeout fires
    const result = await client.callTool({ name: tool, arguments: args }, undefined, {
      signal,
      timeout: Math.max(1, deadline - Date.now()),
    });
    return toFunctionResult(result as ToolCallResult);
  }

  private readyClient(): Client {
    if (this.state.kind === 'ready') return this.state.client;
    const why = this.state.kind === 'down' ? this.state.reason : 'it is (re)connecting';
    throw new UnavailableError(
      `MCP server '${this.server.name}' is unavailable: ${why}; retrying in the background`,
    );
  }

  private callError(client: Client | undefined, err: unknown): Error {
    if (err instanceof McpError) {
      if (err.code === (ErrorCode.RequestTimeout as number))
        return new TimeoutError(
          `MCP server '${this.server.name}' did not answer within its time limit (${this.server.timeout} ms at most)`,
        );
      if (err.code !== (ErrorCode.ConnectionClosed as number)) return new FunctionFailedError(err.message);
    }
    if (err instanceof FunctionFailedError) return err;
    // a transport failure (connection refused, the process gone): reconnect in the background
    const reason = `${(err as Error)?.message ?? String(err)}`.slice(0, 300);
    if (client) this.lost(client, reason);
    return new UnavailableError(`MCP server '${this.server.name}' is unavailable: ${reason}`);
  }

  private connect(): Promise<void> {
    this.connecting ??= this.tryConnect().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private async tryConnect(): Promise<void> {
    if (this.closed) return;
    clearTimeout(this.retryTimer);
    this.state = { kind: 'connecting' };
    const client = new Client({ name: 'agentchassis-function-runner', version: '1.0.0' });
    let stderrTail = () => '';
    try {
      const opened = await openTransport(this.server, this.isolation);
      stderrTail = opened.stderrTail;
      client.onclose = () => this.lost(client, `the server closed the connection ${detail(stderrTail())}`);
      client.onerror = (error) => this.logger.debug(`MCP server '${this.server.name}': ${error.message}`);
      // before connecting, so a change announced right after the handshake is not missed
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => void this.relist(client));
      await client.connect(opened.transport, { timeout: this.server.timeout });
      const tools = await this.listTools(client);
      if (this.closed) return void (await client.close());
      this.state = { kind: 'ready', client };
      this.backoff.reset();
      this.logger.info(`MCP server '${this.server.name}' connected`, { tools: tools.length });
      this.onTools(tools);
    } catch (err) {
      client.onclose = undefined;
      await client.close().catch(() => undefined);
      const reason = `${(err as Error).message} ${detail(stderrTail())}`.trim().slice(0, 500);
      this.state = { kind: 'down', reason };
      if (this.backoff.retries === 0)
        this.logger.warn(`MCP server '${this.server.name}' could not connect: ${reason}`);
      this.retry();
    }
  }

  private lost(client: Client, reason: string): void {
    if (this.closed || this.state.kind !== 'ready' || this.state.client !== client) return;
    this.logger.warn(`MCP server '${this.server.name}' lost: ${reason.trim()}; reconnecting`);
    this.state = { kind: 'down', reason: reason.trim() };
    client.onclose = undefined;
    void client.close().catch(() => undefined);
    this.retry();
  }

  private retry(): void {
    if (this.closed) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => void this.connect(), this.backoff.next());
    this.retryTimer.unref();
  }

  private async relist(client: Client): Promise<void> {
    try {
      const tools = await this.listTools(client);
      if (this.state.kind !== 'ready' || this.state.client !== client) return;
      this.logger.info(`MCP server '${this.server.name}' changed its tools`, { tools: tools.length });
      this.onTools(tools);
    } catch (err) {
      this.logger.warn(`MCP server '${this.server.name}': the new tool list could not be read`, { err });
    }
  }

  /** Every page, within the server's timeout, through the include/exclude filter. */
  private async listTools(client: Client): Promise<Tool[]> {
    const deadline = Date.now() + this.server.timeout;
    const tools: Tool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const result = await client.listTools(cursor ? { cursor } : undefined, {
        timeout: Math.max(1, deadline - Date.now()),
      });
      tools.push(...result.tools);
      cursor = result.nextCursor;
      if (!cursor) break;
    }
    const { include, exclude } = this.server.tools;
    return tools.filter((t) => (!include || include.includes(t.name)) && !exclude.includes(t.name));
  }
}

/** Why the server refused the request before running it (a session it forgot, a token it no longer takes), if it did. */
function refusedBeforeRunning(err: unknown): string | undefined {
  if (err instanceof UnauthorizedError || (err instanceof StreamableHTTPError && err.code === 401))
    return 'the server refused the token';
  if (!(err instanceof StreamableHTTPError)) return undefined;
  if (err.code === 404 || (err.code === 400 && /session/i.test(err.message)))
    return 'the server forgot the session';
  return undefined;
}

function detail(stderr: string): string {
  return stderr ? `(stderr: ${stderr.split('\n').slice(-3).join(' | ')})` : '';
}
