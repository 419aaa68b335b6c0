// Model calls through an operator's HTTP proxy (LLM_PROXY), as in a network with controlled egress.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentRunReply } from '@app/contracts';
import { type ForwardProxy, startForwardProxy } from '@app/testing';
import { type ChatStack, post, startChatStack } from './chat-stack';

describe('the executor behind an HTTP proxy (gateway and executor processes)', () => {
  let stack: ChatStack;
  let proxy: ForwardProxy;

  beforeAll(async () => {
    proxy = await startForwardProxy();
    stack = await startChatStack({ functions: [], agents: () => [], env: { LLM_PROXY: proxy.url } });
  });
  afterAll(async () => {
    await stack?.close();
    await proxy?.close();
  });

  it('sends every model call through LLM_PROXY', async () => {
    stack.llm.setScript({ replies: ['Hello through the proxy.'] });
    const res = await post(stack.base, '/api/v1/chat', { message: 'hi' });
    expect(((await res.json()) as AgentRunReply).reply).toBe('Hello through the proxy.');
    expect(proxy.seen.map((line) => line.replace(/http:\/\/[^/]+/, ''))).toEqual([
      'POST /v1/chat/completions',
    ]);
  });
});
