// Model calls through an operator's HTTP proxy (LLM_PROXY), as in a network with controlled egress.
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentRunReply } from '@app/contracts';
import { type ChatStack, post, startChatStack } from './chat-stack';

describe('the executor behind an HTTP proxy (gateway and executor processes)', () => {
  let stack: ChatStack;
  let proxy: Server;
  const proxied: string[] = [];

  beforeAll(async () => {
    proxy = createServer((req, res) => {
      proxied.push(`${req.method} ${new URL(req.url!).pathname}`);
      const upstream = request(req.url!, { method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      req.pipe(upstream);
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    const env = { LLM_PROXY: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}` };
    stack = await startChatStack({ functions: [], agents: () => [], env });
  });
  afterAll(async () => {
    await stack?.close();
    proxy?.closeAllConnections();
    await new Promise<void>((r) => proxy?.close(() => r()));
  });

  it('sends every model call through LLM_PROXY', async () => {
    stack.llm.setScript({ replies: ['Hello through the proxy.'] });
    const res = await post(stack.base, '/api/v1/chat', { message: 'hi' });
    expect(((await res.json()) as AgentRunReply).reply).toBe('Hello through the proxy.');
    expect(proxied).toEqual(['POST /v1/chat/completions']);
  });
});
