import { Body, Controller, Get, Headers, Inject, Param, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AgentNotFoundError, JsonRpcErrorResponse, NAME_PATTERN } from '@app/contracts';
import { CurrentRunCaller } from '../../auth/principal.decorator';
import { AdmitsRun } from '../../auth/admits-run.decorator';
import type { Caller } from '../../chat/chat.service';
import { baseUrlOf } from '../../common/error-shapes';
import { sendFrames } from '../../common/event-stream';
import { ApiRoute } from '../../common/openapi/api-route.decorator';
import { A2aService } from './a2a.service';

const CARD = {
  type: 'object',
  description:
    'An A2A 1.0 Agent Card (its JSON-RPC interface at /a2a/<agent>; the platform API key as bearer)',
};

function agentOf(agent: string): string {
  if (!NAME_PATTERN.test(agent)) throw new AgentNotFoundError(agent.slice(0, 64));
  return agent;
}

/** A2A 1.0 (JSON-RPC binding): the platform's agents for other agents, tasks as runs. */
@Controller()
export class A2aController {
  constructor(@Inject(A2aService) private readonly a2a: A2aService) {}

  @Get('.well-known/agent-card.json')
  @ApiRoute({
    tag: 'a2a',
    summary: 'The public A2A Agent Card (the agent `a2a.card_agent` names), readable without a key',
    content: { 'application/json': { schema: CARD } },
    status: 200,
  })
  publicCard(@Req() req: Request) {
    return this.a2a.publicCard(baseUrlOf(req));
  }

  @Get('a2a/:agent/.well-known/agent-card.json')
  @ApiRoute({
    tag: 'a2a',
    errorBody: JsonRpcErrorResponse,
    summary: 'An agent’s A2A Agent Card',
    content: { 'application/json': { schema: CARD } },
    status: 200,
  })
  card(@Param('agent') agent: string, @Req() req: Request) {
    return this.a2a.card(agentOf(agent), baseUrlOf(req));
  }

  @Post('a2a/:agent')
  @AdmitsRun((req) =>
    ['SendMessage', 'SendStreamingMessage'].includes((req.body as { method?: string })?.method ?? ''),
  )
  @ApiRoute({
    tag: 'a2a',
    errorBody: JsonRpcErrorResponse,
    summary:
      'A2A 1.0 JSON-RPC: SendMessage, SendStreamingMessage, GetTask, ListTasks, CancelTask, SubscribeToTask, GetExtendedAgentCard',
    description:
      'A task is a platform run (`id` = run id, `contextId` = session id: send it to continue the session). A task ' +
      'whose call is held for approval is `input-required`, its status message listing the held calls; a message ' +
      'on that task with a data part `{"approve": true|false, "reason"?, "id"?}` decides one. Streaming methods ' +
      'answer with server-sent events, one JSON-RPC response each. Send `A2A-Version: 1.0`.',
    headers: { 'A2A-Version': 'The protocol version the client speaks: 1.0' },
    status: 200,
    content: {
      'application/json': { schema: { type: 'object', description: 'a JSON-RPC response' } },
      'text/event-stream': { schema: { type: 'string', description: '`data: <JSON-RPC response>` blocks' } },
    },
  })
  async rpc(
    @Param('agent') agent: string,
    @Body() body: unknown,
    @Headers('a2a-version') version: string | undefined,
    @CurrentRunCaller() caller: Caller,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const answer = await this.a2a.handle(body, {
      caller,
      agent: agentOf(agent),
      base: baseUrlOf(req),
      version,
    });
    if (answer.kind === 'stream') return sendFrames(res, answer.frames);
    res.status(200).json(answer.body);
  }
}
