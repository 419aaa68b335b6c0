import { Inject, Injectable } from '@nestjs/common';
import { type AgentCard, AgentCard as AgentCardJson, formatSSEErrorEvent, formatSSEEvent } from '@a2a-js/sdk';
import { toJsonRpcError } from '@a2a-js/sdk/errors';
import { JsonRpcTransportHandler, ServerCallContext, validateVersion } from '@a2a-js/sdk/server';
import { NotFoundError } from '@app/contracts';
import { type Caller, ChatService } from '../../chat/chat.service';
import { RunsService } from '../../runs/runs.service';
import { A2aCardService } from './a2a-card.service';
import { PlatformA2aHandler } from './a2a-tasks';

/** One JSON-RPC answer: a response, or a stream of them (server-sent events). */
export type A2aAnswer = { kind: 'json'; body: unknown } | { kind: 'stream'; frames: AsyncIterable<string> };

/**
 * A2A 1.0 over JSON-RPC: the SDK's transport handler parses each request and writes each
 * response; `PlatformA2aHandler` answers them from the platform's runs. Only protocol version 1.0
 * is served (a request without `A2A-Version` asks for 0.3, and is told so).
 */
@Injectable()
export class A2aService {
  constructor(
    @Inject(ChatService) private readonly chat: ChatService,
    @Inject(RunsService) private readonly runs: RunsService,
    @Inject(A2aCardService) private readonly cards: A2aCardService,
  ) {}

  /** The public card (`/.well-known/agent-card.json`): the agent the operator chose to show. */
  async publicCard(base: string): Promise<unknown> {
    const agent = this.cards.publicAgent;
    if (!agent) throw new NotFoundError('agent card', '/.well-known/agent-card.json');
    return AgentCardJson.toJSON(await this.cards.card(agent, base));
  }

  async card(agent: string, base: string): Promise<unknown> {
    return AgentCardJson.toJSON(await this.cards.card(agent, base));
  }

  async handle(
    body: unknown,
    request: { caller: Caller; agent: string; base: string; version?: string },
  ): Promise<A2aAnswer> {
    const handler = new PlatformA2aHandler(
      { chat: this.chat, runs: this.runs, cards: this.cards },
      request.caller,
      request.agent,
      request.base,
    );
    const id = (body as { id?: unknown } | null)?.id ?? null;
    const context = new ServerCallContext({ requestedVersion: request.version });
    try {
      const card: AgentCard = await handler.getAgentCard();
      validateVersion(context.requestedVersion, card, 'JSONRPC');
      const answer = await new JsonRpcTransportHandler(handler).handle(
        body as Record<string, unknown>,
        context,
      );
      if (!isStream(answer)) return { kind: 'json', body: answer };
      return { kind: 'stream', frames: sseOf(answer, id) };
    } catch (err) {
      return { kind: 'json', body: { jsonrpc: '2.0', id, error: toJsonRpcError(err) } };
    }
  }
}

function isStream(value: unknown): value is AsyncGenerator<unknown> {
  return typeof (value as AsyncGenerator | undefined)?.[Symbol.asyncIterator] === 'function';
}

/** A stream of JSON-RPC responses as server-sent events; a failure mid-stream is its last event. */
async function* sseOf(responses: AsyncGenerator<unknown>, id: unknown): AsyncGenerator<string> {
  try {
    for await (const response of responses) yield formatSSEEvent(response as never);
  } catch (err) {
    yield formatSSEErrorEvent({ jsonrpc: '2.0', id: id as string, error: toJsonRpcError(err) } as never);
  }
}
