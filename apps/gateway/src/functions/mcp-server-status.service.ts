import { Inject, Injectable } from '@nestjs/common';
import { Bus } from '@app/bus';
import { MCP_STATE_PREFIX, type McpServerList, type McpServerView, Routes } from '@app/contracts';

const STATES = new Set(['ready', 'connecting', 'down']);

/** The MCP servers the function runners mount, and each one's state, as the runner that answers a ping sees it. */
@Injectable()
export class McpServerStatusService {
  constructor(@Inject(Bus) private readonly bus: Bus) {}

  async list(): Promise<McpServerList> {
    let states: Record<string, { state: string; reason?: string; tools?: number }>;
    try {
      states = (await this.bus.request(Routes.servicePing('function-runner'))).states ?? {};
    } catch {
      return { servers: [], answered: false };
    }
    const servers = Object.entries(states)
      .filter(([key, s]) => key.startsWith(MCP_STATE_PREFIX) && STATES.has(s.state))
      .map(([key, s]): McpServerView => ({
        name: key.slice(MCP_STATE_PREFIX.length),
        state: s.state as McpServerView['state'],
        tools: s.tools ?? 0,
        ...(s.reason ? { reason: s.reason } : {}),
      }))
      .sort((a, b) => a.name.localeCompare(b.name));
    return { servers, answered: true };
  }
}
