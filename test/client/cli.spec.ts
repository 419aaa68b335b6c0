import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  AgentRunReply,
  ApiKeyView,
  CreatedApiKey,
  DelayTaskView,
  FunctionDefinition,
  RunView,
} from '@app/client';
import { expectEventually } from '@app/testing';
import { ADMIN_KEY, addCall, type ClientStack, runCli, startClientStack } from './client-stack';

describe('the agentchassis CLI as a process against the four services', () => {
  let stack: ClientStack;
  let env: Record<string, string>;
  const cli = (...args: string[]) => runCli(args, env);

  beforeAll(async () => {
    stack = await startClientStack();
    env = { AC_URL: stack.base, AC_API_KEY: ADMIN_KEY };
  });
  afterAll(() => stack?.close());

  it('run: prints the reply and exits 0 on final; --json prints the whole response', async () => {
    stack.llm.setScript({ replies: [addCall(2, 3), 'Five.'] });
    const plain = await cli('run', '--message', 'Two plus three?');
    expect(plain).toMatchObject({ code: 0, stdout: 'Five.\n' });

    const json = await cli('run', '-m', 'Two plus three?', '--json');
    expect(json.code).toBe(0);
    const reply = JSON.parse(json.stdout) as AgentRunReply;
    expect(reply).toMatchObject({
      reply: 'Five.',
      finish_reason: 'final',
      function_calls: [{ name: 'add', status: 'success', result: { data: { sum: 5 } } }],
    });

    const tree = await cli('runs', 'show', reply.run_id);
    expect(tree.code).toBe(0);
    expect(tree.stdout).toContain(`${reply.run_id}  default (react)  completed · final`);
    expect(tree.stdout).toMatch(/├─ step 1 action add \{"a":2,"b":3\} \(\d+ ms, \d+\+\d+ tokens\)/);
    expect(tree.stdout).toMatch(/│  └─ observation: <result name="add">.*sum: 5/);
    expect(tree.stdout).toMatch(/└─ reply: Five\./);
    expect(tree.stdout).not.toContain('\x1b[');
  });

  it('runs fork: from step 2 with another result, streamed; runs messages: what a step saw', async () => {
    stack.llm.setScript({ replies: [addCall(2, 3), 'Five.'] });
    const original = JSON.parse(
      (await cli('run', '-m', 'Two plus three?', '--json')).stdout,
    ) as AgentRunReply;
    stack.llm.setScript({ rules: [{ match: 'sum: 40', reply: 'Forty.' }], fallback: 'Other.' });
    const forked = await cli('runs', 'fork', original.run_id, '--from', '2', '--result', '0={"sum":40}');
    expect(forked.code).toBe(0);
    expect(forked.stdout).toContain('Forty.');
    const json = await cli(
      'runs',
      'fork',
      original.run_id,
      '--from',
      '1',
      '-m',
      'Ten plus thirty?',
      '--json',
    );
    expect(JSON.parse(json.stdout)).toMatchObject({ reply: 'Other.', finish_reason: 'final' });
    const seen = await cli('runs', 'messages', original.run_id, '2');
    expect(seen.code).toBe(0);
    expect(seen.stdout).toMatch(/— system \(system\) · \d+ tokens/);
    expect(seen.stdout).toContain('<result name="add">');
    const bad = await cli('runs', 'fork', original.run_id, '--from', '2', '--result', 'nonsense');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('--result must be <index>=<json>');
  });

  it('run --plan: carries out the given plan; a bad one exits 1 naming the step', async () => {
    stack.llm.setScript({ fallback: 'Seven.' });
    const plan = JSON.stringify({ steps: [{ tool: 'add', parameters: { a: 3, b: 4 } }] });
    const done = await cli('run', '--plan', plan, '--json');
    expect(done.code).toBe(0);
    expect(JSON.parse(done.stdout)).toMatchObject({
      reply: 'Seven.',
      function_calls: [{ name: 'add', status: 'success', result: { data: { sum: 7 } } }],
    });
    const bad = await cli(
      'run',
      '--plan',
      JSON.stringify({ steps: [{ tool: 'add', parameters: { a: 3 } }] }),
    );
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('plan.steps[0].parameters.b: is required');
  });

  it('run: exits 2 when the run stops at a limit', async () => {
    stack.llm.setScript({ replies: [addCall(1, 1), addCall(2, 2), 'never'] });
    const limited = await cli('run', '-m', 'keep adding', '--agent', 'limited', '--json');
    expect(JSON.parse(limited.stdout)).toMatchObject({ finish_reason: 'max_steps' });
    expect(limited.code).toBe(2);
  });

  it('run: exits 3 on a plan held for approval; runs approve streams the plan to its answer', async () => {
    stack.llm.setScript({
      replies: ['{"steps":[{"description":"add them","tool":"add","params":{"a":4,"b":4}}]}', 'Eight.'],
    });
    const held = await cli('run', '-m', 'Four plus four', '--agent', 'approver', '--json');
    expect(held.code).toBe(3);
    const { run_id } = JSON.parse(held.stdout) as AgentRunReply;
    const approved = await cli('runs', 'approve', run_id);
    expect(approved.code).toBe(0);
    expect(approved.stdout).toMatch(
      /^step 1 running: add them\n→ add\(\{"a":4,"b":4\}\)\n {2}✓ add \d+ ms \{"data":\{"sum":8\}\}\nstep 1 completed: add them\nEight\.\n$/,
    );
    const again = await cli('runs', 'reject', run_id);
    expect(again).toMatchObject({ code: 1, stderr: expect.stringContaining('(conflict, HTTP 409)') });
  });

  it('runs reject --reason: a held plan is rejected, the reason on record with the decision', async () => {
    stack.llm.setScript({
      replies: ['{"steps":[{"description":"add them","tool":"add","params":{"a":1,"b":1}}]}'],
    });
    const held = await cli('run', '-m', 'One plus one', '--agent', 'approver', '--json');
    const { run_id } = JSON.parse(held.stdout) as AgentRunReply;
    const rejected = await cli('runs', 'reject', run_id, '--reason', 'not now');
    expect(rejected).toMatchObject({ code: 0, stdout: `${run_id}: rejected\n` });
    const shown = JSON.parse((await cli('runs', 'show', run_id, '--json')).stdout) as RunView;
    expect(shown.decisions).toEqual([
      expect.objectContaining({ kind: 'plan', action: 'reject', reason: 'not now' }),
    ]);
  });

  it("exits 1 with the API's message and code on stderr for a wrong key, and for an unknown session", async () => {
    const wrong = await runCli(['run', '-m', 'hi'], { AC_URL: stack.base, AC_API_KEY: 'ac_wrong_key' });
    expect(wrong.code).toBe(1);
    expect(wrong.stdout).toBe('');
    expect(wrong.stderr).toMatch(/^error: .+ \(unauthorized, HTTP 401\)$/m);

    const gone = await cli('sessions', 'show', 'ses_gone');
    expect(gone).toMatchObject({ code: 1 });
    expect(gone.stderr).toContain('(not_found, HTTP 404)');
  });

  it('chat: streams a turn, tool calls compact, then the answer; the session id on stderr', async () => {
    stack.llm.setScript({ replies: [`Adding.\n${addCall(20, 22)}`, 'Forty-two.'] });
    const turn = await cli('chat', 'Twenty plus twenty-two?');
    expect(turn.code).toBe(0);
    const lines = turn.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('· Adding.');
    expect(lines[1]).toBe('→ add({"a":20,"b":22})');
    expect(lines[2]).toMatch(/^ {2}✓ add \d+ ms \{"data":\{"sum":42\}\}$/);
    expect(lines[3]).toBe('Forty-two.');
    expect(lines).toHaveLength(4);
    const sessionId = /session (ses_\S+)/.exec(turn.stderr)?.[1];
    expect(sessionId).toBeDefined();

    const shown = await cli('sessions', 'show', sessionId!, '--json');
    expect(JSON.parse(shown.stdout)).toMatchObject({
      id: sessionId,
      messages: [
        { role: 'user', content: 'Twenty plus twenty-two?' },
        { role: 'assistant', content: 'Forty-two.' },
      ],
    });
    const listed = await cli('sessions', 'list', '--query', 'TWENTY plus', '--json');
    expect(JSON.parse(listed.stdout).items.map((s: { id: string }) => s.id)).toContain(sessionId);
    const runs = await cli('runs', 'list', '--session', sessionId!);
    expect(runs.code).toBe(0);
    expect(runs.stdout).toMatch(/completed\s+final/);
  });

  it('chat: Ctrl-C cancels the run on the server and exits 130', async () => {
    stack.llm.setScript({ replies: [{ text: 'too late', latencyMs: 20_000 }] });
    const asked = stack.llm.requests().length;
    const turn = await runCli(['chat', 'take your time'], env, undefined, (child) => {
      void expectEventually(() => expect(stack.llm.requests().length).toBeGreaterThan(asked)).then(() =>
        child.kill('SIGINT'),
      );
    });
    expect(turn.code).toBe(130);
    const runId = /\[cancelled\] run (run_\S+)/.exec(turn.stderr)?.[1];
    expect(runId).toBeDefined();
    const run = await expectEventually(async () => {
      const shown = JSON.parse((await cli('runs', 'show', runId!, '--json')).stdout) as RunView;
      expect(shown.status).toBe('cancelled');
      return shown;
    });
    expect(run.finish_reason).toBe('cancelled');
  });

  it('functions: list as JSON, invoke a runner built-in, and refuse bad params with exit 1', async () => {
    const list = await cli('functions', 'list', '--json');
    const names = (JSON.parse(list.stdout) as FunctionDefinition[]).map((f) => f.name);
    expect(names).toEqual(expect.arrayContaining(['add', 'send_message', 'delay_create']));

    const sent = await cli(
      'functions',
      'invoke',
      'send_message',
      '--params',
      '{"to":"ops","message":"cli says hi"}',
    );
    expect(sent.code).toBe(0);
    expect(sent.stdout).toMatch(/ops/);
    await expectEventually(() => expect(stack.runner.output()).toMatch(/message for ops: cli says hi/));

    const json = await cli('functions', 'invoke', 'add', '-p', '{"a":1,"b":2}', '--json');
    expect(JSON.parse(json.stdout)).toMatchObject({ status: 'success', result: { data: { sum: 3 } } });

    const bad = await cli('functions', 'invoke', 'send_message', '-p', '{"to":"ops"}');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/\(invalid_params, HTTP 400\)/);
    const notJson = await cli('functions', 'invoke', 'add', '-p', '{a:1}');
    expect(notJson.code).toBe(1);
    expect(notJson.stderr).toMatch(/--params is not valid JSON/);
  });

  it('delays and crons: create, list as JSON, cancel and delete', async () => {
    const runAt = new Date(Date.now() + 3_600_000).toISOString();
    const created = await cli(
      'delays',
      'create',
      '-n',
      'cli-reminder',
      '--at',
      runAt,
      '-f',
      'send_message',
      '-p',
      '{"to":"ops","message":"later"}',
    );
    expect(created).toMatchObject({
      code: 0,
      stdout: expect.stringContaining('created delay cli-reminder: pending'),
    });
    const delays = JSON.parse((await cli('delays', 'list', '--json')).stdout) as DelayTaskView[];
    expect(delays).toEqual([
      expect.objectContaining({ name: 'cli-reminder', status: 'pending', owner: 'admin' }),
    ]);
    expect((await cli('delays', 'cancel', 'cli-reminder')).stdout).toContain('cli-reminder: cancelled');

    const cron = await cli(
      'crons',
      'create',
      '-n',
      'cli-daily',
      '--cron',
      '0 9 * * *',
      '--timezone',
      'UTC',
      '-f',
      'send_message',
      '-p',
      '{"to":"ops","message":"daily"}',
    );
    expect(cron.code).toBe(0);
    expect(JSON.parse((await cli('crons', 'list', '--json')).stdout)).toEqual([
      expect.objectContaining({ name: 'cli-daily', cron_expr: '0 9 * * *' }),
    ]);
    expect((await cli('crons', 'list')).stdout).toMatch(/^NAME\s+CRON_EXPR.*\ncli-daily\s+0 9 \* \* \*/);
    expect(await cli('crons', 'delete', 'cli-daily')).toMatchObject({ code: 0 });
    expect(JSON.parse((await cli('crons', 'list', '--json')).stdout)).toEqual([]);
  });

  it('keys: create one (shown once), use it, list as JSON, revoke it', async () => {
    const created = JSON.parse(
      (await cli('keys', 'create', '-n', 'reader', '--scopes', 'functions:read', '--json')).stdout,
    ) as CreatedApiKey;
    expect(created.key).toMatch(/^ac_/);
    const asReader = await runCli(['functions', 'list'], { AC_URL: stack.base, AC_API_KEY: created.key });
    expect(asReader.stdout).toMatch(/^NAME\s+PROVIDER\s+PARAMS\s+DESCRIPTION/);
    const forbidden = await runCli(['run', '-m', 'hi'], { AC_URL: stack.base, AC_API_KEY: created.key });
    expect(forbidden).toMatchObject({ code: 1, stderr: expect.stringContaining('(forbidden, HTTP 403)') });

    const keys = JSON.parse((await cli('keys', 'list', '--json')).stdout) as ApiKeyView[];
    expect(keys.map((k) => k.name)).toContain('reader');
    expect(JSON.stringify(keys)).not.toContain(created.key);
    expect(await cli('keys', 'revoke', created.id)).toMatchObject({ code: 0 });
    const revoked = await runCli(['functions', 'list'], { AC_URL: stack.base, AC_API_KEY: created.key });
    expect(revoked.code).toBe(1);
  });

  it('health: the report as JSON, exit 0 when everything is up; --help on a command', async () => {
    const health = await cli('health', '--json');
    expect(health.code).toBe(0);
    expect(JSON.parse(health.stdout)).toMatchObject({
      status: 'ok',
      services: { gateway: 'ok', 'agent-executor': 'ok', 'function-runner': 'ok', scheduler: 'ok' },
    });
    const help = await cli('delays', 'create', '--help');
    expect(help).toMatchObject({ code: 0, stdout: expect.stringContaining('--at <time>') });
  });
});
