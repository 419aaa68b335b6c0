import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentChassisClient } from '@app/client';
import { expectEventually } from '@app/testing';
import { ADMIN_KEY, addCall, type ClientStack, startClientStack } from '../client/client-stack';
import { launchChromium, openPage, screenshot, signIn } from './console-browser';

describe('the web console’s views in Chromium against the four services', () => {
  let stack: ClientStack;
  let browser: Browser;
  let admin: AgentChassisClient;

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startClientStack(), launchChromium()]);
    admin = new AgentChassisClient({ baseUrl: stack.base, apiKey: ADMIN_KEY });
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it("shows a run as a waterfall with its usage, its call's decoded result and the raw XML a click away", async () => {
    stack.llm.setScript({ replies: [addCall(4, 5), 'Nine.'] });
    const reply = await admin.chat({ message: 'Four plus five?' });
    const { page, close } = await openPage(browser);
    try {
      await signIn(page, stack.base, ADMIN_KEY);
      await page.getByRole('link', { name: 'Runs' }).click();
      await page.getByRole('link', { name: reply.run_id }).click();
      const timeline = page.getByRole('list', { name: 'Timeline' });
      await expectEventually(async () => expect(await timeline.getByRole('listitem').count()).toBe(3));
      expect(await timeline.getByRole('listitem').nth(1).textContent()).toMatch(
        /^Step 1 · add\d+ ms from [\d.]+ m?s$/,
      );
      const result = page.getByRole('group', { name: 'add result, step 1' });
      expect(await result.getByRole('region', { name: 'add result, step 1 data' }).textContent()).toBe(
        'sum9',
      );
      await result.getByRole('button', { name: 'Raw XML: add result, step 1' }).click();
      expect(await result.getByLabel('add result, step 1 raw XML').textContent()).toContain('sum: 9');
      expect(await page.getByLabel('add arguments, step 1').textContent()).toMatch(/"a": 4,\s*"b": 5/);
      const facts = await page.locator('dl.facts').textContent();
      expect(facts).toContain('final');
      expect(facts).toMatch(/add ×1 \(\d+ ms\)/);
      expect(facts).toMatch(/[\d,]+ prompt \+ \d+ completion tokens/);
      expect(facts).toContain(reply.run_id);
      await screenshot(page, 'runs');
    } finally {
      await close();
    }
  });

  it('tries a function from the form generated from its schema: a result, then the validation error', async () => {
    const { page, close } = await openPage(browser);
    try {
      await signIn(page, stack.base, ADMIN_KEY);
      await page.getByRole('link', { name: 'Functions' }).click();
      await page.getByRole('link', { name: 'add', exact: true }).click();
      expect(await page.getByLabel('add schema').textContent()).toContain('"required"');
      await page.getByLabel('a *').fill('2');
      await page.getByLabel('b *').fill('40');
      await page.getByRole('button', { name: 'Invoke' }).click();
      const result = page.getByLabel('Invocation result');
      await expectEventually(async () => expect(await result.textContent()).toMatch(/success in \d+ ms/));
      expect(await page.getByLabel('Result', { exact: true }).textContent()).toContain('"sum": 42');
      await screenshot(page, 'functions');

      // the runner's own functions are validated there: a missing required parameter is refused
      await page.getByRole('link', { name: 'send_message', exact: true }).click();
      await page.getByLabel(/^to \*/).fill('alice');
      await page.getByRole('button', { name: 'Invoke' }).click();
      const refused = page.getByRole('alert');
      await expectEventually(async () =>
        expect(await refused.textContent()).toMatch(/message.*\(invalid_params\)/),
      );
      expect(await page.getByLabel('Invocation result').count()).toBe(0);
      await screenshot(page, 'functions-error');
    } finally {
      await close();
    }
  });

  it('lists sessions newest first, finds one by its text and opens its messages and runs', async () => {
    stack.llm.setScript({ replies: ['Green tea, then.', 'Noted.'] });
    const tea = await admin.chat({ message: 'Shall we have a matcha ceremony?' });
    await admin.chat({ message: 'Something else entirely' });
    const { page, close } = await openPage(browser);
    try {
      await signIn(page, stack.base, ADMIN_KEY);
      await page.getByRole('link', { name: 'Sessions' }).click();
      const rows = page.getByRole('table', { name: 'Sessions, newest first' }).locator('tbody tr');
      await expectEventually(async () => expect(await rows.count()).toBeGreaterThanOrEqual(2));
      await page.getByLabel('Search').fill('matcha');
      await page.getByRole('button', { name: 'Search' }).click();
      await expectEventually(async () => expect(await rows.count()).toBe(1));
      await page.getByRole('link', { name: tea.session_id }).click();
      const messages = page.getByRole('list', { name: 'Messages' });
      await expectEventually(async () => expect(await messages.textContent()).toContain('Green tea, then.'));
      expect(await messages.textContent()).toContain('Shall we have a matcha ceremony?');
      const runs = page.getByRole('list', { name: 'Runs of this session' });
      await expectEventually(async () => expect(await runs.textContent()).toContain(tea.run_id));
      await screenshot(page, 'sessions');
    } finally {
      await close();
    }
  });

  it('creates a delay from the page that fires and turns completed', async () => {
    const { page, close } = await openPage(browser);
    try {
      await signIn(page, stack.base, ADMIN_KEY);
      await page.getByRole('link', { name: 'Tasks' }).click();
      // the field takes the browser's local time, to the second
      const soon = (await page.evaluate(
        `(() => { const d = new Date(Date.now() + 2000); const p = (n) => String(n).padStart(2, '0');
          return d.getFullYear() + '-' + p(d.getMonth() + 1) + '-' + p(d.getDate()) + 'T' + p(d.getHours()) + ':' + p(d.getMinutes()) + ':' + p(d.getSeconds()); })()`,
      )) as string;
      const form = page.getByRole('form', { name: 'Create a delay' });
      await form.getByLabel('Name').fill('console-sum');
      await form.getByLabel('Run at (your time)').fill(soon);
      await form.getByLabel('Function').fill('add');
      await form.getByLabel('Params (JSON)').fill('{"a": 20, "b": 22}');
      await form.getByRole('button', { name: 'Create delay' }).click();
      const row = page.getByRole('table', { name: 'Delays' }).getByRole('row', { name: /console-sum/ });
      await expectEventually(async () =>
        expect(await row.textContent()).toMatch(/pending|running|completed/),
      );
      await expectEventually(
        async () => {
          await page.getByRole('button', { name: 'Refresh' }).click();
          expect(await row.textContent()).toContain('completed');
        },
        { timeoutMs: 20_000, intervalMs: 500 },
      );
      expect(await row.textContent()).toContain('42');
      expect((await admin.delays.get('console-sum')).status).toBe('completed');

      const cronForm = page.getByRole('form', { name: 'Create a cron' });
      await cronForm.getByLabel('Name').fill('console-nightly');
      await cronForm.getByLabel('Cron expression').fill('0 3 * * *');
      await cronForm.getByLabel('Function').fill('add');
      await cronForm.getByLabel('Params (JSON)').fill('{"a": 1, "b": 1}');
      await cronForm.getByRole('button', { name: 'Create cron' }).click();
      const cron = page.getByRole('table', { name: 'Crons' }).getByRole('row', { name: /console-nightly/ });
      await expectEventually(async () => expect(await cron.textContent()).toContain('0 3 * * *'));
      const next = (await admin.crons.get('console-nightly')).next_run_at;
      expect(await cron.textContent()).toContain(
        (await page.evaluate(`new Date(${JSON.stringify(next)}).toLocaleString()`)) as string,
      );
      await screenshot(page, 'tasks');
      await cron.getByRole('button', { name: 'Delete console-nightly' }).click();
      await expectEventually(async () => expect(await cron.count()).toBe(0));
      expect((await admin.crons.list()).map((c) => c.name)).not.toContain('console-nightly');
    } finally {
      await close();
    }
  });

  it('creates a key shown once with a Copy button, lists it and revokes it', async () => {
    const { page, close } = await openPage(browser);
    try {
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.base });
      await signIn(page, stack.base, ADMIN_KEY);
      await page.getByRole('link', { name: 'Keys' }).click();
      const form = page.getByRole('form', { name: 'Create a key' });
      await form.getByLabel('Name').fill('console-ops');
      await form.getByLabel('tasks:read').check();
      await form.getByRole('button', { name: 'Create key' }).click();
      const key = page.getByLabel('New API key');
      await expectEventually(async () => expect(await key.textContent()).toMatch(/^ac_/));
      await page.getByRole('button', { name: 'Copy', exact: true }).click();
      await expectEventually(async () =>
        expect(await page.getByRole('status').textContent()).toContain('Copied.'),
      );
      expect(await page.evaluate('navigator.clipboard.readText()')).toBe(await key.textContent());
      const row = page.getByRole('table', { name: 'API keys' }).getByRole('row', { name: /console-ops/ });
      expect(await row.textContent()).toContain('chat, tasks:read');
      await screenshot(page, 'keys');
      await row.getByRole('button', { name: 'Revoke console-ops' }).click();
      await expectEventually(async () => expect(await row.textContent()).toContain('revoked'));
      const listed = (await admin.keys.list()).find((k) => k.name === 'console-ops');
      expect(listed?.revoked_at).toBeTruthy();
    } finally {
      await close();
    }
  });

  it('shows a key only the views its scopes allow: no Keys view for a chat-only key', async () => {
    const created = await admin.keys.create({ name: 'chat-only', scopes: ['chat'], principal: 'carol' });
    const { page, close } = await openPage(browser);
    try {
      await signIn(page, stack.base, created.key);
      const nav = page.getByRole('navigation', { name: 'Views' });
      expect(await nav.getByRole('link').allTextContents()).toEqual([
        'Chat',
        'Sessions',
        'Runs',
        'Agents',
        'Usage',
        'Health',
      ]);
      await page.goto(`${stack.base}/#/keys`);
      await page.getByRole('button', { name: 'Sign out' }).waitFor();
      expect(await page.getByRole('heading', { name: 'Keys' }).count()).toBe(0);
      expect(await page.getByRole('form', { name: 'Create an agent' }).count()).toBe(0);
    } finally {
      await close();
    }
  });

  it('creates an agent from the admin form, its tools picked from the catalogue', async () => {
    const { page, close } = await openPage(browser);
    try {
      await signIn(page, stack.base, ADMIN_KEY);
      await page.getByRole('link', { name: 'Agents' }).click();
      const form = page.getByRole('form', { name: 'Create an agent' });
      await form.getByLabel('Name', { exact: true }).fill('console-helper');
      await form.getByLabel('System prompt').fill('You add numbers.');
      await form.getByLabel('Mode', { exact: true }).selectOption('react');
      await form.getByLabel('Max steps').fill('3');
      await form.getByLabel('Temperature').fill('0.2');
      const tools = form.getByRole('group', { name: 'Allowed tools' });
      await form.getByLabel('Search allowed tools').fill('ad');
      await tools.getByLabel('add', { exact: true }).check();
      await form.getByRole('button', { name: 'Create agent' }).click();
      await expectEventually(async () =>
        expect(await form.getByRole('status').textContent()).toContain('console-helper'),
      );
      const agent = await admin.agents.get('console-helper');
      expect(agent).toMatchObject({
        allowed_tools: ['add'],
        max_steps: 3,
        temperature: 0.2,
        system_prompt: 'You add numbers.',
      });
      await expectEventually(async () =>
        expect(await page.getByRole('link', { name: 'console-helper' }).count()).toBe(1),
      );
      await screenshot(page, 'agents');
    } finally {
      await close();
    }
  });

  it('rejects a plan held for approval with a reason, kept on the run’s decisions', async () => {
    stack.llm.setScript({
      replies: ['{"steps":[{"description":"add them","tool":"add","params":{"a":1,"b":1}}]}'],
    });
    const { page, close } = await openPage(browser);
    try {
      await signIn(page, stack.base, ADMIN_KEY);
      await page.getByLabel('Agent').selectOption('approver');
      await page.getByLabel('Message').fill('One plus one');
      await page.getByLabel('Message').press('Enter');
      await expectEventually(async () =>
        expect(await page.locator('.meta').textContent()).toContain('finish: awaiting_approval'),
      );
      await page.locator('.held-plan').getByLabel('Reason (optional)').fill('not today');
      await page.locator('.held-plan').getByRole('button', { name: 'Reject' }).click();
      await expectEventually(async () =>
        expect(await page.locator('.meta').textContent()).not.toContain('awaiting_approval'),
      );
      expect(await page.getByRole('button', { name: 'Approve' }).count()).toBe(0);
      const [run] = (await admin.runs.list({ limit: 1 })).items;
      const view = await admin.runs.trace(run.id);
      expect(view.decisions).toEqual([
        expect.objectContaining({ kind: 'plan', action: 'reject', reason: 'not today' }),
      ]);
      expect(stack.functions.calls.filter((c) => c.name === 'add' && c.request.params.a === 1)).toEqual([]);
    } finally {
      await close();
    }
  });
});
