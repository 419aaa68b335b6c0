import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentRunReply } from '@app/contracts';
import { connectMigrated } from '@app/persistence';
import { REPO_ROOT } from '@app/testing';
import { delay } from '../../apps/agent-executor/src/testing/test-functions';
import { bodyHashOf } from '../../apps/gateway/src/chat/chat-idempotency.service';
import { add, type ChatStack, post, readEvents, startChatStack } from './chat-stack';

const addCall = (a: number, b: number) => `<call name="add"><p>a: ${a}</p><p>b: ${b}</p></call>`;
type Reply = AgentRunReply & { error?: { code: string; message: string; details?: unknown } };

describe('Idempotency-Key on POST /api/v1/chat (gateway and executor processes)', () => {
  let stack: ChatStack;

  beforeAll(async () => {
    stack = await startChatStack({
      functions: [
        add,
        {
          name: 'nap',
          params: { ms: { type: 'integer' } },
          run: async ({ ms }) => (await delay(Number(ms)), {}),
        },
      ],
      agents: () => [],
    });
  });
  afterAll(() => stack?.close());

  const chat = async (body: Record<string, unknown>, key?: string) => {
    const res = await post(stack.base, '/api/v1/chat', body, key ? { 'idempotency-key': key } : {});
    return { status: res.status, body: (await res.json()) as Reply };
  };
  const runsOf = async (sessionId: string) => {
    const res = await fetch(`${stack.base}/api/v1/runs?session_id=${sessionId}&limit=100`);
    return ((await res.json()) as { items: { id: string }[] }).items.map((run) => run.id);
  };
  const script = (replies: string[]) => {
    stack.llm.setScript({ replies });
    stack.llm.clearRequests();
  };

  it('a retry with the same key and body answers from the same run, which ran once', async () => {
    script([addCall(2, 3), 'Five.', addCall(2, 3), 'Five again.']);
    const first = await chat({ message: 'Two plus three?' }, 'key-same');
    const retry = await chat({ message: 'Two plus three?' }, 'key-same');
    expect(first.status).toBe(200);
    expect(retry.status).toBe(200);
    expect(retry.body.run_id).toBe(first.body.run_id);
    expect(retry.body).toMatchObject({
      reply: 'Five.',
      session_id: first.body.session_id,
      finish_reason: 'final',
    });
    expect(await runsOf(first.body.session_id)).toEqual([first.body.run_id]);
    expect(stack.llm.requests()).toHaveLength(2);
  });

  it('the same key with another body is refused with 409 idempotency_conflict naming the key', async () => {
    script(['One.']);
    expect((await chat({ message: 'first body' }, 'key-conflict')).status).toBe(200);
    const other = await chat({ message: 'another body' }, 'key-conflict');
    expect(other.status).toBe(409);
    expect(other.body.error).toMatchObject({
      code: 'idempotency_conflict',
      details: { idempotency_key: 'key-conflict' },
    });
    expect(other.body.error?.message).toContain('key-conflict');
  });

  it('without a key, the same body twice starts two runs', async () => {
    script(['One.', 'Two.']);
    const first = await chat({ message: 'Same words' });
    const second = await chat({ message: 'Same words', session_id: first.body.session_id });
    expect(second.body.run_id).not.toBe(first.body.run_id);
    expect((await runsOf(first.body.session_id)).sort()).toEqual(
      [first.body.run_id, second.body.run_id].sort(),
    );
  });

  it('a retry sent while the run is still going follows it, and a stream retry ends with its run_end', async () => {
    script(['<call name="nap"><p>ms: 400</p></call>', 'Rested.']);
    const body = { message: 'Take a nap' };
    const [first, retry] = await Promise.all([chat(body, 'key-busy'), chat(body, 'key-busy')]);
    expect(first.status).toBe(200);
    expect(retry.status).toBe(200);
    expect(retry.body.run_id).toBe(first.body.run_id);
    expect(retry.body.reply).toBe('Rested.');
    const streamed = await post(
      stack.base,
      '/api/v1/chat',
      { ...body, stream: true },
      { 'idempotency-key': 'key-busy' },
    );
    const events = await readEvents(streamed);
    expect(events.at(-1)).toMatchObject({
      event: 'run_end',
      data: { run_id: first.body.run_id, reply: 'Rested.' },
    });
    expect(await runsOf(first.body.session_id)).toEqual([first.body.run_id]);
    expect(stack.llm.requests()).toHaveLength(2);
  });

  // As a gateway killed between claiming the key and starting its run leaves it: the claim's row,
  // its run unknown to every executor, and nobody left to give the key up.
  it('a retry of a key whose claiming request died before its run started starts that run, once', async () => {
    // each conversation (keyed by its first message) is answered from the script's start
    script(['Started: {{last_user}}']);
    const { db } = await connectMigrated(stack.env.DATABASE_URL, REPO_ROOT);
    const orphan = async (key: string, body: { message: string }) => {
      const runId = `run_${randomUUID().replaceAll('-', '')}`;
      await db.idempotencyKey.create({
        data: { principal: '', key, body_hash: bodyHashOf(body), run_id: runId },
      });
      return runId;
    };
    try {
      const body = { message: 'Claimed by a gateway that died' };
      const runId = await orphan('key-orphan', body);
      const retry = await chat(body, 'key-orphan');
      expect(retry.status, JSON.stringify(retry.body)).toBe(200);
      expect(retry.body).toMatchObject({ run_id: runId, reply: `Started: ${body.message}` });
      expect(await runsOf(retry.body.session_id)).toEqual([runId]);

      const streamedBody = { message: 'Streamed by a gateway that died' };
      const streamedRun = await orphan('key-orphan-stream', streamedBody);
      const streamed = await post(
        stack.base,
        '/api/v1/chat',
        { ...streamedBody, stream: true },
        { 'idempotency-key': 'key-orphan-stream' },
      );
      expect(streamed.status).toBe(200);
      expect((await readEvents(streamed)).at(-1)).toMatchObject({
        event: 'run_end',
        data: { run_id: streamedRun, reply: `Started: ${streamedBody.message}` },
      });
      // once each: a retry of either key now follows the run it started
      expect((await chat(body, 'key-orphan')).body.run_id).toBe(runId);
      expect(stack.llm.requests()).toHaveLength(2);
    } finally {
      await db.$disconnect();
    }
  });

  it('refuses a key that is not 1 to 255 visible ASCII characters', async () => {
    const res = await chat({ message: 'hi' }, 'x'.repeat(256));
    expect(res.status).toBe(400);
    expect(res.body.error?.message).toContain('Idempotency-Key');
  });
});
