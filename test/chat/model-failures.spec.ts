import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentRunReply, RunView } from '@app/contracts';
import { add, type ChatStack, post, readEvents, startChatStack } from './chat-stack';

interface ErrorReply {
  error: { code: string; message: string; details: Record<string, unknown> };
}

describe('a chat turn whose model fails (gateway and executor processes, the scripted model)', () => {
  let stack: ChatStack;

  beforeAll(async () => {
    stack = await startChatStack({
      functions: [add],
      agents: () => [
        // OpenAI's own endpoint without a key: the platform's key never goes to another endpoint.
        { name: 'keyless', provider: 'openai', base_url: 'https://api.openai.com/v1' },
        { name: 'unreachable', provider: 'openai-compatible', base_url: 'http://127.0.0.1:9/v1' },
      ],
    });
  });
  afterAll(() => stack?.close());

  const chat = async (body: Record<string, unknown>) => {
    const res = await post(stack.base, '/api/v1/chat', body);
    return { status: res.status, body: (await res.json()) as ErrorReply };
  };
  const runOf = async (runId: unknown) =>
    (await (await fetch(`${stack.base}/api/v1/runs/${String(runId)}`)).json()) as RunView;

  it('answers 502 upstream_error with the provider status and code when the provider refuses the key, and records the run', async () => {
    stack.llm.setScript({ replies: [{ status: 401 }] });
    const { status, body } = await chat({ message: 'Hello' });
    expect({ status, body }).toMatchObject({ status: 502 });
    expect(body.error).toMatchObject({
      code: 'upstream_error',
      details: {
        llm_error: 'llm_auth',
        status: 401,
        provider_code: 'invalid_api_key',
        finish_reason: 'error',
      },
    });
    const run = await runOf(body.error.details.run_id);
    expect(run).toMatchObject({ status: 'failed', finish_reason: 'error' });
    expect(run.trace).toEqual([expect.objectContaining({ kind: 'llm_error' })]);
  });

  it('answers 502 when the provider cannot be reached', async () => {
    const { status, body } = await chat({ message: 'Hello', agent: 'unreachable' });
    expect({ status, body }).toMatchObject({ status: 502 });
    expect(body.error).toMatchObject({ code: 'upstream_error', details: { llm_error: 'llm_unavailable' } });
  });

  it('answers 503 naming the setting when the model is not configured', async () => {
    const { status, body } = await chat({ message: 'Hello', agent: 'keyless' });
    expect({ status, body }).toMatchObject({ status: 503 });
    expect(body.error).toMatchObject({
      code: 'unavailable',
      message: expect.stringMatching(
        /not configured: LLM_API_KEY is required for openai at api\.openai\.com/,
      ),
      details: { part: 'llm', finish_reason: 'error' },
    });
    expect(await runOf(body.error.details.run_id)).toMatchObject({ finish_reason: 'error' });
  });

  it('ends an SSE stream with run_end carrying the same error code', async () => {
    stack.llm.setScript({ replies: [{ status: 401 }] });
    const res = await post(stack.base, '/api/v1/chat', { message: 'Hello', stream: true });
    const events = await readEvents(res);
    expect(events.map((e) => e.event)).toEqual(['run_start', 'run_end']);
    expect(events[1].data as AgentRunReply).toMatchObject({
      finish_reason: 'error',
      error: { code: 'upstream_error', details: { status: 401 } },
    });
  });

  it('answers 503 naming the agent-executor when none is running', async () => {
    await stack.executor.stop();
    const { status, body } = await chat({ message: 'Hello' });
    expect({ status, error: body.error }).toEqual({
      status: 503,
      error: {
        code: 'unavailable',
        message: 'no agent-executor answers: chat needs one running',
        details: { part: 'agent-executor' },
      },
    });
  });
});
