import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunView } from '@app/contracts';
import { api, type McpStack, startMcpStack } from '../mcp/mcp-stack';
import { addCall, type OpenAiStack, startOpenAiStack } from '../openai/openai-stack';

/**
 * Two platforms: the remote one serves its agents over A2A; the local one mounts them from its
 * config (`a2a.agents`) as functions `a2a_<name>`, which its own agent calls through its runner.
 */
describe('a remote A2A agent mounted as a function (two platforms, the official @a2a-js/sdk client in the runner)', () => {
  let remote: OpenAiStack;
  let local: McpStack;

  beforeAll(async () => {
    remote = await startOpenAiStack(() => [
      { name: 'helper', description: 'Adds numbers.', allowed_tools: ['add'] },
      { name: 'guarded', allowed_tools: ['add'], needs_approval: ['add'] },
    ]);
    const mount = (name: string, agent: string) => ({
      name,
      url: `${remote.stack.base}/a2a/${agent}`,
      auth: { bearer: remote.chatKey },
      allow_private_network: true,
    });
    local = await startMcpStack({
      servers: [],
      agents: [{ name: 'caller', allowed_tools: ['a2a_*'] }],
      a2aAgents: [mount('adder', 'helper'), mount('bank', 'guarded')],
    });
  }, 90_000);
  afterAll(async () => {
    await local?.close();
    await remote?.close();
  });

  const ask = (message: string) => api(local.base, 'POST', '/api/v1/chat', { message, agent: 'caller' });
  const runOf = async (runId: string) =>
    (await api(local.base, 'GET', `/api/v1/runs/${runId}`)).body as unknown as RunView;

  it('lists the remote agent as a2a_<name>, described from its card, and calls it through the runner', async () => {
    const { body } = await api(local.base, 'GET', '/api/v1/functions/a2a_adder');
    expect(body).toMatchObject({ name: 'a2a_adder', description: expect.stringContaining('Adds numbers.') });
    remote.script({
      rules: [
        { match: 'What is 2+3', reply: addCall(2, 3) },
        { match: '<result name="add"', reply: 'It is 5.' },
      ],
    });
    local.llm.setScript({
      rules: [
        { match: 'Ask the adder', reply: '<call name="a2a_adder"><p>message: What is 2+3?</p></call>' },
        { match: '<result name="a2a_adder"', reply: 'The adder says 5.' },
      ],
    });
    const reply = await ask('Ask the adder what 2+3 is.');
    expect(reply.body).toMatchObject({ reply: 'The adder says 5.', finish_reason: 'final' });
    const run = await runOf(reply.body.run_id as string);
    const call = run.trace.find((step) => step.action?.tool === 'a2a_adder');
    expect(call?.observation).toContain('It is 5.');
    expect(call?.observation).toMatch(/run_[0-9a-f]+/); // the remote task (a run there)
  });

  it('maps input-required to an answer that says what is asked, and carries the remote task on', async () => {
    remote.script({
      rules: [
        { match: 'Add 4 and 4', reply: addCall(4, 4) },
        { match: '<result name="add"', reply: 'Eight.' },
      ],
    });
    local.llm.setScript({
      rules: [
        { match: 'Ask the bank', reply: '<call name="a2a_bank"><p>message: Add 4 and 4.</p></call>' },
        { match: '<result name="a2a_bank"', reply: 'The bank asks for approval.' },
      ],
    });
    const held = await ask('Ask the bank to add 4 and 4.');
    const run = await runOf(held.body.run_id as string);
    const call = run.trace.find((step) => step.action?.tool === 'a2a_bank');
    expect(call?.observation).toMatch(/needs input/);
    expect(call?.observation).toContain('approval_request');
    const taskId = /run_[0-9a-f]{32}/.exec(call?.observation ?? '')?.[0];
    expect(taskId).toBeDefined();
    // the local agent answers the remote task with the structured input it asked for
    local.llm.setScript({
      rules: [
        {
          match: 'Approve it',
          reply: `<call name="a2a_bank"><p>message: approved</p><p>task_id: ${taskId}</p><data type="json">{"data":{"approve":true}}</data></call>`,
        },
        { match: '<result name="a2a_bank"', reply: 'The bank says: Eight.' },
      ],
    });
    const done = await api(local.base, 'POST', '/api/v1/chat', {
      message: 'Approve it.',
      agent: 'caller',
      session_id: held.body.session_id,
    });
    expect(done.body).toMatchObject({ reply: 'The bank says: Eight.' });
  });
});
