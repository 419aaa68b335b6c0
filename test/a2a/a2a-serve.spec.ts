import { randomUUID } from 'node:crypto';
import { type Message, type Part, Role, type Task, TaskState } from '@a2a-js/sdk';
import {
  type Client,
  ClientFactory,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
} from '@a2a-js/sdk/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addCall, type OpenAiStack, startOpenAiStack } from '../openai/openai-stack';

const text = (value: string): Part => ({
  content: { $case: 'text', value },
  metadata: undefined,
  filename: '',
  mediaType: 'text/plain',
});
const data = (value: unknown): Part => ({
  content: { $case: 'data', value },
  metadata: undefined,
  filename: '',
  mediaType: 'application/json',
});
const message = (parts: Part[], at: { taskId?: string; contextId?: string } = {}): Message => ({
  messageId: randomUUID(),
  contextId: at.contextId ?? '',
  taskId: at.taskId ?? '',
  role: Role.ROLE_USER,
  parts,
  metadata: undefined,
  extensions: [],
  referenceTaskIds: [],
});
const send = (client: Client, msg: Message) =>
  client.sendMessage({
    tenant: '',
    message: msg,
    configuration: undefined,
    metadata: undefined,
  }) as Promise<Task>;
const textOf = (parts: Part[] = []) =>
  parts.map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join('');

describe('A2A 1.0 served at /a2a with the official @a2a-js/sdk client (gateway, executor, NATS, SQLite)', () => {
  let stack: OpenAiStack;
  const fetchWith =
    (key: string): typeof fetch =>
    (url, init) => {
      const headers = new Headers(init?.headers);
      headers.set('authorization', `Bearer ${key}`);
      return fetch(url, { ...init, headers });
    };
  const clientFor = (path: string, key = stack.chatKey, transportKey = key) =>
    new ClientFactory({
      transports: [new JsonRpcTransportFactory({ fetchImpl: fetchWith(transportKey) })],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl: fetchWith(key) }),
    }).createFromUrl(`${stack.stack.base}${path}`);

  beforeAll(async () => {
    stack = await startOpenAiStack(
      () => [
        { name: 'helper', description: 'Adds numbers.', allowed_tools: ['add'] },
        { name: 'guarded', allowed_tools: ['add'], needs_approval: ['add'] },
      ],
      { A2A_CARD_AGENT: 'helper' },
    );
  });
  afterAll(() => stack?.close());

  it('publishes the chosen agent’s card without a key, the platform’s keys as its security scheme', async () => {
    const res = await fetch(`${stack.stack.base}/.well-known/agent-card.json`);
    expect(res.status).toBe(200);
    const card = (await res.json()) as Record<string, unknown>;
    expect(card).toMatchObject({
      name: 'helper',
      description: 'Adds numbers.',
      supportedInterfaces: [
        { url: `${stack.stack.base}/a2a/helper`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      ],
      capabilities: { streaming: true, extendedAgentCard: true },
      securitySchemes: { apiKey: { httpAuthSecurityScheme: { scheme: 'bearer' } } },
    });
    const client = await clientFor('');
    const extended = await client.getAgentCard();
    expect(extended.skills.map((skill) => skill.id)).toEqual(['helper', 'add']);
  });

  it('runs a message as a task (a platform run), answered with its artifact, and gets it again', async () => {
    stack.script({
      rules: [
        { match: 'What is 2+3', reply: addCall(2, 3) },
        { match: '<result name="add"', reply: 'It is 5.' },
      ],
    });
    const client = await clientFor('');
    const task = await send(client, message([text('What is 2+3?')]));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(task.id).toMatch(/^run_/);
    expect(task.contextId).toMatch(/^ses_/);
    expect(textOf(task.artifacts[0].parts)).toBe('It is 5.');
    const again = await client.getTask({ tenant: '', id: task.id, historyLength: undefined });
    expect(again).toMatchObject({ id: task.id, status: { state: TaskState.TASK_STATE_COMPLETED } });
    // the next message in its context continues the session
    stack.script({ fallback: 'You asked about 2+3.' });
    const next = await send(client, message([text('What did I ask?')], { contextId: task.contextId }));
    expect(next.contextId).toBe(task.contextId);
  });

  it('streams a task: the task, its artifact, then the completed status', async () => {
    stack.script({ fallback: 'Counting: 1 2 3.' });
    const client = await clientFor('');
    const kinds: string[] = [];
    let answer = '';
    for await (const event of client.sendMessageStream({
      tenant: '',
      message: message([text('Count.')]),
      configuration: undefined,
      metadata: undefined,
    })) {
      kinds.push(event.payload?.$case ?? '');
      if (event.payload?.$case === 'artifactUpdate') answer = textOf(event.payload.value.artifact?.parts);
      if (event.payload?.$case === 'statusUpdate') kinds.push(TaskState[event.payload.value.status!.state]);
    }
    expect(kinds[0]).toBe('task');
    expect(kinds.slice(-2)).toEqual(['statusUpdate', 'TASK_STATE_COMPLETED']);
    expect(answer).toBe('Counting: 1 2 3.');
  });

  it('asks for input when a call is held for approval, and goes on with the decision', async () => {
    stack.script({
      rules: [
        { match: 'Add 4 and 4', reply: addCall(4, 4) },
        { match: '<result name="add"', reply: 'Eight.' },
      ],
    });
    const client = await clientFor('/a2a/guarded/');
    const held = await send(client, message([text('Add 4 and 4.')]));
    expect(held.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const request = held.status?.message?.parts.find((p) => p.content?.$case === 'data')?.content?.value;
    expect(request).toMatchObject({ kind: 'approval_request', function: 'add', arguments: { a: 4, b: 4 } });
    const done = await send(
      client,
      message([data({ approve: true })], { taskId: held.id, contextId: held.contextId }),
    );
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(textOf(done.artifacts[0].parts)).toBe('Eight.');
  });

  it('refuses a wrong key, a spent budget and an unknown task in JSON-RPC’s terms', async () => {
    const wrong = await clientFor('', stack.chatKey, 'ac_not_a_key_0123456789abcdef');
    await expect(send(wrong, message([text('Hi')]))).rejects.toThrow(/unknown or revoked API key|401/);
    const broke = await stack.createKey(['chat'], { daily_cost_budget_usd: 0 });
    const poor = await clientFor('', broke);
    await expect(send(poor, message([text('Hi')]))).rejects.toThrow(/budget/);
    const client = await clientFor('');
    await expect(
      client.getTask({ tenant: '', id: 'run_0000', historyLength: undefined }),
    ).rejects.toMatchObject({
      name: 'TaskNotFoundError',
    });
  });
});
