import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { MCP_STATE_PREFIX } from '@app/contracts';
import type { PlatformConfig } from '@app/config';
import { FunctionRegistry } from '@app/functions';
import { Logger, Redactor } from '@app/observability';
import { HealthChecks, PLATFORM_CONFIG } from '@app/runtime';
import { NETWORK_ISOLATION } from '../functions.tokens';
import type { NetworkIsolation } from '../sandbox/network-isolation';
import { McpConnection } from './mcp-connection';
import { McpFunctionBuilder } from './mcp-functions';

export const MCP_GROUP = 'mcp';

/**
 * The configured MCP servers' tools, mounted in the runner's registry as the `mcp` group: served
 * on `fn.exec.<name>` in the runner's queue group like every other function, and announced on
 * `fn.announce` whenever a server's tools change (through the registry's change listener).
 */
@Injectable()
export class McpServersService implements OnModuleInit, OnApplicationShutdown {
  private readonly connections: McpConnection[];
  private readonly tools = new Map<McpConnection, Tool[]>();
  private readonly builder = new McpFunctionBuilder();
  private readonly logger: Logger;

  constructor(
    @Inject(FunctionRegistry) private readonly registry: FunctionRegistry,
    @Inject(PLATFORM_CONFIG) config: PlatformConfig,
    @Inject(Logger) logger: Logger,
    @Inject(NETWORK_ISOLATION) isolation: NetworkIsolation,
    @Inject(HealthChecks) checks: HealthChecks,
  ) {
    this.logger = logger.child({ component: 'mcp' });
    const redactor = new Redactor(config.secrets);
    this.connections = config.mcp.servers.map((server) => {
      const connection: McpConnection = new McpConnection(server, isolation, this.logger, (tools) => {
        this.tools.set(connection, tools);
        this.mount();
      });
      // each server's state goes out with the runner's pings (GET /api/v1/mcp/servers reads them)
      checks.describe(`${MCP_STATE_PREFIX}${server.name}`, () => {
        const { state, reason } = connection.status();
        const tools = this.tools.get(connection)?.length ?? 0;
        return { state, tools, ...(reason ? { reason: redactor.redact(reason) } : {}) };
      });
      return connection;
    });
  }

  /** Each server's first connection attempt, bounded by its timeout; later ones in the background. */
  async onModuleInit(): Promise<void> {
    await Promise.all(this.connections.map((c) => c.start()));
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all(this.connections.map((c) => c.close()));
  }

  private mount(): void {
    const taken = new Set(this.registry.names().filter((n) => this.registry.get(n)?.group !== MCP_GROUP));
    const servers = this.connections
      .filter((c) => this.tools.has(c))
      .map((c) => ({ connection: c, tools: this.tools.get(c) ?? [] }));
    const plan = this.builder.build(servers, taken);
    for (const line of plan.renamed) this.logger.warn(`MCP tool renamed to avoid a collision: ${line}`);
    for (const line of plan.refused) this.logger.error(`MCP tool not served: ${line}`);
    for (const { name, reason } of this.registry.setGroup(MCP_GROUP, plan.functions))
      this.logger.error(`MCP tool '${name}' not served: ${reason}`);
  }
}
