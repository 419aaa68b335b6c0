import type OpenAI from 'openai';
import type Anthropic from '@anthropic-ai/sdk';
import { TaskState } from '@a2a-js/sdk';
import { expect, it } from 'vitest';
import type { Rule } from '@app/testing';
import { ADMIN_KEY, type Cluster } from './cluster.harness';
import {
  a2aMessage,
  a2aOn,
  a2aOutcome,
  agUiOn,
  agUiRun,
  anthropicOn,
  consoleClient,
  mcpClient,
  openaiOn,
} from './doors';

/** A message of this prefix is answered `door: <message>` at once; of the next, `slowly: …` after a while. */
const DOOR = 'door-';
const DOOR_SLOW = 'door-slow-';
/** A message of this prefix has the model call the caller's own tool `lookup` (in xml-toon). */
const DOOR_TOOL = 'door-tool-';

/** The scripted model's answers to the cases below. */
export const DOOR_RULES: Rule[] = [
  { match: DOOR_SLOW, reply: { text: 'slowly: {{last_user}}', latencyMs: 3_000 } },
  { match: '<result name="lookup"', reply: 'looked it up' },
  { match: DOOR_TOOL, reply: '<call name="lookup"><p>q: oslo</p></call>' },
  { match: DOOR, reply: 'door: {{last_user}}' },
];

interface Gateways {
  cluster: Cluster;
  a: string;
  b: string;
}

const LOOKUP: OpenAI.ChatCompletionTool = {
  type: 'function',
  function: { name: 'lookup', parameters: { type: 'object', properties: { q: { type: 'string' } } } },
};

/**
 * The gateway's doors, each case one conversation begun on gateway A and continued on gateway B
 * with the door's own client: nothing a conversation needs may be kept by one gateway only.
 */
export function doorCases(on: () => Gateways): void {
  it('MCP: a client initialized on A lists and calls tools on B', { timeout: 60_000 }, () =>
    mcpSessionOnB(on()),
  );
  it('Responses: a chain begun on A goes on on B; a response A streams is read on B', () =>
    responsesOnB(on()));
  it('A2A: a task streamed on A, its client gone, is got and resubscribed on B to its end', () =>
    a2aTaskOnB(on()));
  it('console: the page A served loads its files from B; a chat streamed from A resumes on B', () =>
    consoleOnB(on()));
  it('Chat Completions: a client tool call asked on A is answered on B; the run goes on', () =>
    clientToolOnB(on()));
  it('Anthropic Messages: a tool_use asked on A is answered on B; the run goes on', () => toolUseOnB(on()));
  it('AG-UI: a call held in a run on A is approved by resuming on B', () => agUiInterruptOnB(on()));
}

async function mcpSessionOnB({ cluster, a, b }: Gateways): Promise<void> {
  let at = a;
  const mcp = await mcpClient(() => at, ADMIN_KEY);
  // stateless (as MCP allows): no session id to look up on another gateway
  expect(mcp.transport.sessionId).toBeUndefined();
  at = b;
  const tag = `${DOOR}mcp-${Date.now()}`;
  const { tools } = await mcp.client.listTools();
  expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining([cluster.fn.name, 'agent_helper']));
  const called = await mcp.client.callTool({ name: cluster.fn.name, arguments: { tag } });
  expect(called.isError).toBeFalsy();
  expect(cluster.fn.callsTagged(tag)).toHaveLength(1);
  const asked = await mcp.client.callTool({ name: 'agent_helper', arguments: { message: tag } });
  expect(JSON.stringify(asked.content)).toContain(`door: ${tag}`);
  expect(mcp.seen[0]).toBe(a);
  expect(mcp.seen.at(-1)).toBe(b);
  await mcp.client.close();
}

async function responsesOnB({ cluster, a, b }: Gateways): Promise<void> {
  const [onA, onB] = [openaiOn(a, ADMIN_KEY), openaiOn(b, ADMIN_KEY)];
  const tag = `${Date.now()}`;
  const first = await onA.responses.create({ model: 'helper', input: `${DOOR}ada-${tag}` });
  const second = await onB.responses.create({
    model: 'helper',
    input: `${DOOR}who-${tag}`,
    previous_response_id: first.id,
  });
  expect(second.output_text).toBe(`door: ${DOOR}who-${tag}`);
  // the model was asked the second turn with the first in its conversation
  const asked = cluster.llm.requests().filter((r) => JSON.stringify(r.body).includes(`${DOOR}who-${tag}`));
  expect(JSON.stringify(asked.at(-1)?.body)).toContain(`door: ${DOOR}ada-${tag}`);
  expect((await onB.responses.retrieve(first.id)).output_text).toBe(first.output_text);

  const stream = onA.responses.stream({ model: 'helper', input: `${DOOR_SLOW}${tag}` });
  const id = await new Promise<string>((resolve) =>
    stream.on('response.created', (event) => resolve(event.response.id)),
  );
  expect((await onB.responses.retrieve(id)).status).toBe('in_progress');
  const done = await stream.finalResponse();
  expect(done.output_text).toBe(`slowly: ${DOOR_SLOW}${tag}`);
  expect(await onB.responses.retrieve(id)).toMatchObject({
    status: 'completed',
    output_text: done.output_text,
  });
}

async function a2aTaskOnB({ a, b }: Gateways): Promise<void> {
  const tag = `${DOOR_SLOW}a2a-${Date.now()}`;
  const [onA, onB] = await Promise.all([a2aOn(a, ADMIN_KEY, 'helper'), a2aOn(b, ADMIN_KEY, 'helper')]);
  const streamed = onA.sendMessageStream({
    tenant: '',
    message: a2aMessage(tag),
    configuration: undefined,
    metadata: undefined,
  });
  const { value: first } = await streamed.next();
  await streamed.return(undefined);
  expect(first?.payload?.$case).toBe('task');
  const id = first?.payload?.$case === 'task' ? first.payload.value.id : '';
  const get = () => onB.getTask({ tenant: '', id, historyLength: undefined });
  expect((await get()).status?.state).toBe(TaskState.TASK_STATE_WORKING);
  expect(await a2aOutcome(onB.resubscribeTask({ tenant: '', id }))).toEqual({
    text: `slowly: ${tag}`,
    state: TaskState.TASK_STATE_COMPLETED,
  });
  expect((await get()).status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
}

async function consoleOnB({ cluster, a, b }: Gateways): Promise<void> {
  const page = await (await fetch(`${a}/`)).text();
  const assets = [...page.matchAll(/\/assets\/[\w.-]+/g)].map((match) => match[0]);
  expect(assets.length).toBeGreaterThan(0);
  for (const asset of assets) {
    const [fromA, fromB] = await Promise.all([fetch(`${a}${asset}`), fetch(`${b}${asset}`)]);
    expect([fromA.status, fromB.status]).toEqual([200, 200]);
    expect(await fromB.text()).toBe(await fromA.text());
  }
  // signed in on A (the key is the console's only credential: nothing is kept by a gateway)
  let at = a;
  const { client, seen } = consoleClient(
    () => at,
    ADMIN_KEY,
    () => (at = b),
  );
  expect((await client.me()).scopes).toContain('admin');
  const tag = `console-${Date.now()}`;
  const events: { type: string; data: unknown }[] = [];
  for await (const event of client.chatStream({ message: tag, agent: 'helper' })) events.push(event);
  expect(seen).toEqual([a, a, b]);
  expect(events.filter((event) => event.type === 'run_start')).toHaveLength(1);
  expect(events.at(-1)).toMatchObject({ type: 'run_end', data: { reply: `done: ${tag}` } });
  expect(await cluster.db.run.count({ where: { input: tag } })).toBe(1);
}

async function clientToolOnB({ cluster, a, b }: Gateways): Promise<void> {
  const [onA, onB] = [openaiOn(a, ADMIN_KEY), openaiOn(b, ADMIN_KEY)];
  const tag = `${DOOR_TOOL}chat-${Date.now()}`;
  const question: OpenAI.ChatCompletionMessageParam = { role: 'user', content: tag };
  const asked = await onA.chat.completions.create({
    model: 'caller',
    messages: [question],
    tools: [LOOKUP],
  });
  expect(asked.choices[0].finish_reason).toBe('tool_calls');
  const [call] = asked.choices[0].message.tool_calls!;
  const result = `${DOOR}found-${Date.now()}`;
  const answered = await onB.chat.completions.create({
    model: 'caller',
    tools: [LOOKUP],
    messages: [question, asked.choices[0].message, { role: 'tool', tool_call_id: call.id, content: result }],
  });
  expect(answered.choices[0]).toMatchObject({
    finish_reason: 'stop',
    message: { content: 'looked it up' },
  });
  expect(JSON.stringify(cluster.llm.requests().at(-1)?.body)).toContain(result);
  // one run, paused on A and continued on B
  expect(await cluster.db.run.count({ where: { input: tag } })).toBe(1);
}

async function toolUseOnB({ cluster, a, b }: Gateways): Promise<void> {
  const tag = `${DOOR_TOOL}messages-${Date.now()}`;
  const tools: Anthropic.Tool[] = [
    { name: 'lookup', input_schema: { type: 'object', properties: { q: { type: 'string' } } } },
  ];
  const question: Anthropic.MessageParam = { role: 'user', content: tag };
  const create = { model: 'caller', max_tokens: 256, tools };
  const asked = await anthropicOn(a, ADMIN_KEY).messages.create({ ...create, messages: [question] });
  expect(asked.stop_reason).toBe('tool_use');
  const use = asked.content.find((block) => block.type === 'tool_use')!;
  const result = `${DOOR}found-${Date.now()}`;
  const answered = await anthropicOn(b, ADMIN_KEY).messages.create({
    ...create,
    messages: [
      question,
      { role: 'assistant', content: asked.content },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: result }] },
    ],
  });
  expect(answered).toMatchObject({ stop_reason: 'end_turn', content: [{ text: 'looked it up' }] });
  expect(JSON.stringify(cluster.llm.requests().at(-1)?.body)).toContain(result);
  expect(await cluster.db.run.count({ where: { input: tag } })).toBe(1);
}

async function agUiInterruptOnB({ cluster, a, b }: Gateways): Promise<void> {
  const tag = `ag-ui-${Date.now()}`;
  const agent = agUiOn(a, ADMIN_KEY, 'gated', tag);
  const [held, ...more] = await agUiRun(agent);
  expect(more).toHaveLength(0);
  expect(cluster.fn.callsTagged(tag)).toHaveLength(0);
  // the same client, its next request sent to the other gateway
  agent.url = `${b}/ag-ui/gated`;
  expect(
    await agUiRun(agent, {
      resume: [{ interruptId: held.id, status: 'resolved', payload: { approve: true } }],
    }),
  ).toEqual([]);
  expect(agent.messages.at(-1)).toMatchObject({ role: 'assistant', content: `done: ${tag}` });
  expect(cluster.fn.callsTagged(tag)).toHaveLength(1);
  expect(await cluster.db.run.count({ where: { input: tag } })).toBe(1);
}
