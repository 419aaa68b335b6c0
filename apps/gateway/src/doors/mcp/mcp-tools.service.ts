import { Inject, Injectable } from '@nestjs/common';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import {
  type AgentRunReply,
  AppError,
  ChatRequest,
  type FunctionResult,
  hasScope,
  InvalidParamsError,
  InvokeFunctionBody,
  parseDto,
  type Scope,
  toAppError,
  type ToolDecision,
} from '@app/contracts';
import { AgentsService } from '../../agents/agents.service';
import type { Principal } from '../../auth/api-keys.service';
import { ChatService } from '../../chat/chat.service';
import { FunctionsService } from '../../functions/functions.service';
import { RunsService } from '../../runs/runs.service';
import { heldCallId, parseHeldCallId } from '../held-call-id';

type Target = { kind: 'function'; name: string } | { kind: 'agent'; name: string } | { kind: 'decide' };

/** The tool that decides a call an agent holds for approval (its id from the agent tool's answer). */
export const DECIDE_TOOL = 'approval_decide';

const DECIDE_INPUT: Tool['inputSchema'] = {
  type: 'object',
  properties: {
    id: { type: 'string', description: 'The held call’s id, from the agent tool’s `approvals`' },
    approve: { type: 'boolean', description: 'Run the call (true) or refuse it (false)' },
    reason: { type: 'string', description: 'Why it is refused: the agent reads it' },
  },
  required: ['id', 'approve'],
};

const AGENT_INPUT: Tool['inputSchema'] = {
  type: 'object',
  properties: {
    message: { type: 'string', description: 'What to ask the agent' },
    session_id: { type: 'string', description: 'Continue this conversation (from an earlier reply)' },
  },
  required: ['message'],
};

/**
 * What an API key sees through `/mcp`: the functions it may invoke (`functions:invoke`) and one
 * `agent_<name>` tool per agent it may chat with (`chat`); no scope, no tools. Calls go through
 * the same services as `POST /api/v1/functions/:name/invoke` and `POST /api/v1/chat`, so limits,
 * quotas, run slots, allow-lists, traces and metrics are the REST ones.
 */
@Injectable()
export class McpToolsService {
  constructor(
    @Inject(FunctionsService) private readonly functions: FunctionsService,
    @Inject(AgentsService) private readonly agents: AgentsService,
    @Inject(ChatService) private readonly chat: ChatService,
    @Inject(RunsService) private readonly runs: RunsService,
  ) {}

  async list(principal: Principal): Promise<Tool[]> {
    return [...(await this.catalogue(principal)).values()].map((entry) => entry.tool);
  }

  async call(principal: Principal, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
    const entry = (await this.catalogue(principal)).get(name);
    if (!entry) return failure(new AppError('not_found', `tool '${name}' not found`));
    try {
      if (entry.target.kind === 'decide') return await this.decide(args, principal);
      return entry.target.kind === 'function'
        ? await this.invoke(entry.target.name, args, principal)
        : await this.ask(entry.target.name, args, principal);
    } catch (err) {
      return failure(toAppError(err));
    }
  }

  private async invoke(name: string, args: Record<string, unknown>, principal: Principal) {
    const body = parseDto(InvokeFunctionBody, { params: args }, 'arguments');
    const reply = await this.functions.invoke(name, body, principal);
    if (reply.status === 'error') return failure(AppError.fromBody(reply.error));
    return success(reply.result);
  }

  private async ask(agent: string, args: Record<string, unknown>, principal: Principal) {
    const request = parseDto(ChatRequest, { ...args, agent }, 'arguments');
    return answerOf(await this.chat.chat(request, principal));
  }

  /** A held call decided: the run goes on, and the tool answers with where it stops next. */
  private async decide(args: Record<string, unknown>, principal: Principal) {
    const held = typeof args.id === 'string' ? parseHeldCallId(args.id) : undefined;
    if (!held)
      throw new InvalidParamsError([{ field: 'id', message: 'is not a held call’s id from an agent tool' }]);
    if (typeof args.approve !== 'boolean')
      throw new InvalidParamsError([{ field: 'approve', message: 'must be true or false' }]);
    const reason = typeof args.reason === 'string' ? args.reason : undefined;
    const decision: ToolDecision = {
      action: args.approve ? 'approve' : 'reject',
      call_id: held.callId,
      hash: held.hash,
      ...(!args.approve && reason ? { reason } : {}),
    };
    return answerOf(await this.runs.approve(held.runId, principal, decision));
  }

  private async catalogue(principal: Principal): Promise<Map<string, { tool: Tool; target: Target }>> {
    const may = (scope: Scope) => hasScope(principal.scopes, scope);
    const tools = new Map<string, { tool: Tool; target: Target }>();
    if (may('functions:invoke')) {
      for (const fn of await this.functions.list()) {
        const tool: Tool = { name: fn.name, description: fn.description, inputSchema: fn.parameters };
        tools.set(fn.name, { tool, target: { kind: 'function', name: fn.name } });
      }
    }
    if (may('chat')) {
      const agents = (await this.agents.list()).sort((a, b) => a.name.localeCompare(b.name));
      for (const agent of agents) {
        let name = `agent_${agent.name}`;
        for (let n = 2; tools.has(name); n++) name = `agent_${agent.name}_${n}`;
        const description = agent.description || `Ask the agent '${agent.name}'.`;
        const tool: Tool = { name, description, inputSchema: AGENT_INPUT };
        tools.set(name, { tool, target: { kind: 'agent', name: agent.name } });
      }
      const decide: Tool = {
        name: DECIDE_TOOL,
        description:
          'Approve or refuse a function call an agent holds for approval (an agent tool answers with its `approvals`); the agent then goes on.',
        inputSchema: DECIDE_INPUT,
      };
      tools.set(DECIDE_TOOL, { tool: decide, target: { kind: 'decide' } });
    }
    return tools;
  }
}

/**
 * An agent's reply as the tool's answer; a call it holds for approval is listed with the id to
 * decide it by (`approval_decide`), what it would run, and when its default decision applies.
 */
function answerOf(reply: AgentRunReply): CallToolResult {
  const approvals = (reply.approvals ?? []).map((held) => ({
    id: heldCallId(held.call_id, held.hash),
    function: held.function,
    arguments: held.arguments,
    expires_at: held.expires_at,
  }));
  const waiting = approvals.map(
    (held) =>
      `${held.function} ${JSON.stringify(held.arguments)} waits for approval: call ${DECIDE_TOOL} with id ${held.id}`,
  );
  return {
    content: [{ type: 'text', text: [reply.reply, ...waiting].filter(Boolean).join('\n') }],
    structuredContent: {
      reply: reply.reply,
      run_id: reply.run_id,
      session_id: reply.session_id,
      finish_reason: reply.finish_reason,
      ...(approvals.length ? { approvals } : {}),
    },
  };
}

function success(result: FunctionResult): CallToolResult {
  const data = result.data;
  const structured =
    data !== undefined && typeof data === 'object' && data !== null && !Array.isArray(data)
      ? (data as Record<string, unknown>)
      : data === undefined
        ? undefined
        : { data };
  const text = result.markdown ?? result.message ?? (data === undefined ? '' : JSON.stringify(data));
  return {
    content: [{ type: 'text', text }],
    ...(structured ? { structuredContent: structured } : {}),
  };
}

function failure(error: AppError): CallToolResult {
  const details = error.details === undefined ? '' : ` ${JSON.stringify(error.details)}`;
  return { isError: true, content: [{ type: 'text', text: `${error.code}: ${error.message}${details}` }] };
}
