import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { FunctionResult } from '@app/contracts';
import { type AgentFunction, paramsClassFromSchema } from '@app/functions';
import type { McpConnection } from './mcp-connection';
import { nameTools, type ToolRef } from './mcp-tool-names';
import { toFunctionParameters } from './mcp-tool-schema';

/** Some servers describe a tool in pages; every call's prompt pays for it, so it is cut here. */
export const MAX_DESCRIPTION_CHARS = 1_024;

export interface ServerTools {
  connection: McpConnection;
  tools: Tool[];
}

interface McpToolRef extends ToolRef {
  connection: McpConnection;
  definition: Tool;
}

export interface MountPlan {
  functions: AgentFunction[];
  /** `<name> (server/tool) took the suffixed name because <base> was taken`. */
  renamed: string[];
  /** Tools that cannot be served, and why. */
  refused: string[];
}

/**
 * Every server's tools as platform functions `<prefix>_<tool>`. A function object is reused while
 * its tool is unchanged, so a reconnect that finds the same tools changes nothing in the registry
 * (and announces nothing).
 */
export class McpFunctionBuilder {
  private readonly cache = new Map<string, { key: string; fn: AgentFunction }>();

  build(servers: ServerTools[], taken: ReadonlySet<string>): MountPlan {
    const refs: McpToolRef[] = servers.flatMap(({ connection, tools }) =>
      tools.map((definition) => ({
        server: connection.server.name,
        prefix: connection.server.prefix,
        tool: definition.name,
        connection,
        definition,
      })),
    );
    const plan: MountPlan = { functions: [], renamed: [], refused: [] };
    for (const { ref, name, collided } of nameTools(refs, taken)) {
      if (collided)
        plan.renamed.push(`${name} (${ref.server}/${ref.tool}): the name ${collided} was already taken`);
      try {
        plan.functions.push(this.functionFor(name, ref));
      } catch (err) {
        plan.refused.push(`${ref.server}/${ref.tool}: ${(err as Error).message}`);
      }
    }
    const served = new Set(plan.functions.map((fn) => fn.name));
    for (const name of this.cache.keys()) if (!served.has(name)) this.cache.delete(name);
    return plan;
  }

  private functionFor(name: string, ref: McpToolRef): AgentFunction {
    const { timeout, idempotent } = ref.connection.server;
    const key = JSON.stringify([ref.server, timeout, idempotent, ref.definition]);
    const cached = this.cache.get(name);
    if (cached?.key === key) return cached.fn;
    const { connection, definition } = ref;
    const fn: AgentFunction<Record<string, unknown>> = {
      name,
      description: shorten(
        definition.description?.trim() || definition.title || `The tool ${definition.name} of ${ref.server}.`,
      ),
      params: paramsClassFromSchema(toFunctionParameters(definition.inputSchema)),
      timeoutMs: connection.server.timeout,
      // A foreign server's own hints are not trusted: only the configuration says a tool is safe to repeat.
      idempotent: idempotent === true || (Array.isArray(idempotent) && idempotent.includes(definition.name)),
      execute: (params, ctx): Promise<FunctionResult> =>
        connection.call(definition.name, { ...params }, ctx.signal, ctx.deadline),
    };
    this.cache.set(name, { key, fn: fn as AgentFunction });
    return fn as AgentFunction;
  }
}

function shorten(text: string): string {
  return text.length <= MAX_DESCRIPTION_CHARS ? text : `${text.slice(0, MAX_DESCRIPTION_CHARS - 1)}…`;
}
