// The console as a studio, in Debian's Chromium against the built services: a run's waterfall,
// what a model step saw, a fork side by side, agents edited, sessions continued, usage charts;
// every view at 1280 and 390 px, by keyboard, and nothing requested from another origin.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentChassisClient } from '@app/client';
import { connectMigrated, type Db } from '@app/persistence';
import { expectEventually, REPO_ROOT, type ServiceProcess, startService } from '@app/testing';
import { ADMIN_KEY, addCall, type ClientStack, startClientStack } from '../client/client-stack';
import { LEASE_ENV } from '../durable/durable-stack';
import { launchChromium, openPage, screenshot, signIn } from './console-browser';

const inventory = {
  name: 'inventory',
  run: () => ({
    data: [
      { sku: 'A1', name: 'Apple', qty: 3 },
      { sku: 'B2', name: 'Banana', qty: 40 },
    ],
    markdown: '## Stock\n\nApples are **low**.',
  }),
};

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

describe('the console as a studio (Chromium, four services, two executors)', () => {
  let stack: ClientStack;
  let browser: Browser;
  let db: Db;
  const executors: ServiceProcess[] = [];
  let admin: AgentChassisClient;
  let alice: AgentChassisClient;
  let aliceKey: string;
  /** Every URL any page of this file asked for. */
  const requested: string[] = [];

  /** Each page of the file, recording what it requests; problems (errors, CSP refusals) fail the test. */
  async function page(key: string, viewport = DESKTOP) {
    const opened = await openPage(browser, viewport);
    opened.page.on('request', (r) => requested.push(r.url()));
    await signIn(opened.page, stack.base, key);
    return opened;
  }

  beforeAll(async () => {
    [stack, browser] = await Promise.all([
      startClientStack({ env: LEASE_ENV, functions: [inventory] }),
      launchChromium(),
    ]);
    executors.push(stack.executor, await startService('agent-executor', stack.env));
    db = (await connectMigrated(stack.env.DATABASE_URL, REPO_ROOT)).db;
    admin = new AgentChassisClient({ baseUrl: stack.base, apiKey: ADMIN_KEY });
    aliceKey = (await admin.keys.create({ name: 'alice', scopes: ['chat'], principal: 'alice' })).key;
    alice = new AgentChassisClient({ baseUrl: stack.base, apiKey: aliceKey });
    await admin.agents.create({
      name: 'analyst',
      system_prompt: 'You are the ANALYST of the shop.',
      allowed_tools: ['add', 'inventory'],
      needs_approval: ['add'],
    });
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    // every executor but the stack's own (which it stops): a killed one's replacement may sit first
    await Promise.all(executors.filter((e) => e !== stack?.executor).map((e) => e.stop()));
    await stack?.close();
    await db?.$disconnect();
  });

  /** A run of alice's with a call, a held call she approves, and a takeover of its last model step. */
  async function runWithEverything(): Promise<string> {
    stack.llm.setScript({
      replies: [
        'Looking at the stock. <call name="inventory"></call>',
        addCall(2, 3),
        { text: 'Five, and apples are low.', latencyMs: 2_500 },
      ],
    });
    const held = await alice.chat({ message: 'How is the stock, and two plus three?', agent: 'analyst' });
    expect(held.finish_reason).toBe('awaiting_approval');
    const [call] = held.approvals!;
    const asked = stack.llm.requests().length;
    const approved = alice.runs.approve(held.run_id, { hash: call.hash, call_id: call.call_id });
    await expectEventually(() => expect(stack.llm.requests().length).toBe(asked + 1), { timeoutMs: 15_000 });
    // the last model step is in flight: its executor dies, the other takes the run over
    const row = await db.run.findUniqueOrThrow({ where: { id: held.run_id } });
    const holder = executors.find((e) => row.lease_owner?.includes(`-${e.child.pid}-`))!;
    await holder.kill();
    executors.splice(executors.indexOf(holder), 1, await startService('agent-executor', stack.env));
    await approved.catch(() => undefined);
    await expectEventually(
      async () => expect((await alice.runs.trace(held.run_id)).status).toBe('completed'),
      { timeoutMs: 30_000, intervalMs: 500 },
    );
    return held.run_id;
  }

  it('shows a run as a waterfall with a call, an approval (who, when) and a takeover; results decoded', async () => {
    const runId = await runWithEverything();
    const { page: p, problems, close } = await page(aliceKey);
    try {
      await p.goto(`${stack.base}/#/runs/${runId}`);
      const timeline = p.getByRole('list', { name: 'Timeline' });
      await expectEventually(async () =>
        expect(await timeline.getByRole('listitem').count()).toBeGreaterThanOrEqual(5),
      );
      const text = await timeline.textContent();
      expect(text).toMatch(/Step 1 · model.*prompt.*completion tokens/);
      expect(text).toContain('Step 1 · inventory');
      expect(text).toContain('Step 2 · add');
      // who decided: the principal and the key's id (never its secret)
      expect(text).toMatch(/alice \(key [\w-]+\) approved add.*at \d/);
      expect(text).toContain('Taken over by another executor');
      expect(await p.getByRole('list', { name: 'Approval decisions' }).textContent()).toMatch(
        /alice \(key [\w-]+\) approved add/,
      );
      // and in the run's steps, where the call was held
      expect(await p.locator('body').textContent()).toMatch(/Approval: alice \(key [\w-]+\) approved add/);

      const result = p.getByRole('group', { name: 'inventory result, step 1' });
      const table = result.getByRole('region', { name: 'inventory result, step 1 data' });
      expect(await table.getByRole('row').nth(1).textContent()).toBe('A1Apple3');
      const markdown = result.getByLabel('inventory result, step 1 markdown');
      await expectEventually(async () => expect(await markdown.locator('h2').textContent()).toBe('Stock'));
      expect(await markdown.locator('strong').textContent()).toBe('low');
      await result.getByRole('button', { name: 'Raw XML: inventory result, step 1' }).click();
      expect(await result.getByLabel('inventory result, step 1 raw XML').textContent()).toMatch(
        /^<result name="inventory">/,
      );
      expect(problems).toEqual([]);
      await screenshot(p, 'run-1280');
      await p.setViewportSize(PHONE);
      await screenshot(p, 'run-390');
      await expectNoSideScroll(p);
    } finally {
      await close();
    }
  });

  it('shows what a model step saw: the system prompt with its functions, the results, the raw reply, tokens each', async () => {
    const [run] = (await alice.runs.list({ agent: 'analyst', limit: 1 })).items;
    const { page: p, problems, close } = await page(aliceKey);
    try {
      await p.goto(`${stack.base}/#/runs/${run.id}`);
      await p.getByRole('button', { name: 'What the model saw at step 2' }).click();
      const seen = p.getByRole('region', { name: 'What the model saw at step 2' });
      const messages = seen.getByRole('list', { name: 'Messages sent' });
      await expectEventually(async () =>
        expect(await messages.getByRole('listitem').count()).toBeGreaterThanOrEqual(4),
      );
      const system = seen.getByLabel('1. System prompt (system)', { exact: true });
      expect(await system.textContent()).toContain('You are the ANALYST of the shop.');
      expect(await system.textContent()).toContain('inventory');
      expect(await messages.textContent()).toMatch(/Function result.*tokens/);
      expect(await messages.textContent()).toContain('<result name="inventory">');
      expect(await seen.getByLabel('Tokens by part').textContent()).toMatch(/System prompt: [\d,]+ \(\d+%\)/);
      expect(await seen.getByLabel('Raw reply').textContent()).toContain('<call name="add">');
      expect(problems).toEqual([]);
      await screenshot(p, 'prompt-1280');
      await p.setViewportSize(PHONE);
      await screenshot(p, 'prompt-390', 'scratch');
      await expectNoSideScroll(p);
    } finally {
      await close();
    }
  });

  it('forks a run from step 1 with an edited message: a different answer, the two side by side', async () => {
    stack.llm.setScript({ rules: [{ match: '10 plus 20', reply: 'Thirty.' }], replies: ['Five.'] });
    const original = await alice.chat({ message: 'What is two plus three?' });
    expect(original.reply).toBe('Five.');
    const { page: p, problems, close } = await page(aliceKey);
    try {
      await p.goto(`${stack.base}/#/runs/${original.run_id}`);
      await p.getByRole('button', { name: 'Fork from step 1' }).click();
      const form = p.getByRole('form', { name: 'Fork this run' });
      expect(await form.getByLabel('From step').inputValue()).toBe('1');
      await form.getByLabel('Message (replaces the run’s)').fill('What is 10 plus 20?');
      await form.getByRole('button', { name: 'Fork and run' }).click();
      await p.getByRole('heading', { name: 'Two runs side by side' }).waitFor();
      const left = p.getByRole('article', { name: /^Original: / });
      const right = p.getByRole('article', { name: /^Fork: / });
      await expectEventually(async () =>
        expect((await right.getByLabel('Fork answer').textContent())?.trim()).toBe('Thirty.'),
      );
      expect((await left.getByLabel('Original answer').textContent())?.trim()).toBe('Five.');
      expect(await right.textContent()).toMatch(/Forked at\s*step 1/);
      expect(problems).toEqual([]);
      await screenshot(p, 'fork-1280');
      await p.setViewportSize(PHONE);
      await screenshot(p, 'fork-390', 'scratch');
      await expectNoSideScroll(p);
    } finally {
      await close();
    }
  });

  it('edits an agent in full from its page; its next run uses the change', async () => {
    await admin.agents.create({ name: 'editable', system_prompt: 'OLD-PROMPT', allowed_tools: ['add'] });
    const { page: p, problems, close } = await page(ADMIN_KEY);
    try {
      await p.goto(`${stack.base}/#/agents/editable`);
      await p.getByRole('button', { name: 'Edit' }).click();
      const form = p.getByRole('form', { name: 'Edit agent editable' });
      await form.getByLabel('System prompt').fill('NEW-PROMPT, be brief.');
      await form.getByLabel('Max steps').fill('3');
      await form.getByLabel('Search calls that need approval').fill('inv');
      await form.getByRole('group', { name: 'Calls that need approval' }).getByLabel('inventory').check();
      await form.getByRole('button', { name: 'Save agent' }).click();
      await expectEventually(async () =>
        expect(await form.getByRole('status').textContent()).toBe('Agent editable saved.'),
      );
      expect(await admin.agents.get('editable')).toMatchObject({
        system_prompt: 'NEW-PROMPT, be brief.',
        max_steps: 3,
        needs_approval: ['inventory'],
      });
      // what the API refuses is shown at its field
      await form.getByLabel('Hooks (JSON)').fill('[{"event": "whenever", "function": "audit"}]');
      await form.getByRole('button', { name: 'Save agent' }).click();
      await expectEventually(async () =>
        expect(await form.getByLabel('Hooks (JSON)').getAttribute('aria-invalid')).toBe('true'),
      );
      expect(await form.textContent()).toMatch(/hooks.0.event: .*must be one of/);
      await screenshot(p, 'agent-1280');
      await p.setViewportSize(PHONE);
      await screenshot(p, 'agent-390', 'scratch');
      await expectNoSideScroll(p);
      expect(problems.filter((m) => !m.includes('400'))).toEqual([]);
    } finally {
      await close();
    }
    stack.llm.setScript({ fallback: 'Brief.' });
    const from = stack.llm.requests().length;
    await admin.chat({ message: 'hello', agent: 'editable' });
    const [request] = stack.llm.requests().slice(from);
    const system = (request.body as { messages: { content: string }[] }).messages[0].content;
    expect(system).toContain('NEW-PROMPT, be brief.');
  });

  it('continues a session in chat, then deletes it', async () => {
    stack.llm.setScript({ replies: ['Tea.', 'Green tea.'] });
    const first = await admin.chat({ message: 'What shall we drink?' });
    const { page: p, problems, close } = await page(ADMIN_KEY, PHONE);
    try {
      await p.goto(`${stack.base}/#/sessions/${first.session_id}`);
      await p.getByRole('link', { name: 'Continue in chat' }).click();
      const earlier = p.getByRole('list', { name: 'Earlier in this session' });
      await expectEventually(async () =>
        expect(await earlier.textContent()).toContain('What shall we drink?'),
      );
      const from = stack.llm.requests().length;
      await p.getByLabel('Message').fill('Which kind?');
      await p.getByLabel('Message').press('Enter');
      await expectEventually(async () =>
        expect(await p.getByLabel('Answer').textContent()).toBe('Green tea.'),
      );
      const body = JSON.stringify(stack.llm.requests()[from].body);
      expect(body).toContain('What shall we drink?');
      expect((await admin.sessions.get(first.session_id)).messages).toHaveLength(4);
      await screenshot(p, 'chat-continued-390');

      await p.goto(`${stack.base}/#/sessions/${first.session_id}`);
      await p.getByRole('button', { name: 'Delete session' }).click();
      await p
        .getByRole('group', { name: 'Confirm deleting the session' })
        .getByRole('button', { name: 'Delete' })
        .click();
      await p.getByRole('heading', { name: 'Sessions' }).waitFor();
      await expect(admin.sessions.get(first.session_id)).rejects.toMatchObject({ status: 404 });
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('charts runs, tokens, cost and latency by agent and by key, and creates a key with a daily budget', async () => {
    const { page: p, problems, close } = await page(ADMIN_KEY);
    try {
      await p.getByRole('link', { name: 'Usage' }).click();
      const runs = p.getByRole('img', { name: /^Runs: \d+ in all/ });
      await runs.waitFor();
      expect(await p.getByRole('list', { name: 'Agents' }).textContent()).toContain('analyst');
      await p.getByRole('button', { name: 'API key' }).click();
      await expectEventually(async () =>
        expect(await p.getByRole('list', { name: 'Keys' }).textContent()).toContain('alice'),
      );
      await p.getByRole('button', { name: 'Last 7 days' }).click();
      await expectEventually(async () =>
        expect(await p.getByRole('img', { name: /^Latency p95/ }).count()).toBe(1),
      );
      await screenshot(p, 'usage-1280');

      await p.getByRole('link', { name: 'Keys' }).click();
      const form = p.getByRole('form', { name: 'Create a key' });
      await form.getByLabel('Name').fill('budgeted');
      await form.getByLabel(/^Daily budget, USD/).fill('2.5');
      await form.getByRole('button', { name: 'Create key' }).click();
      await p.getByLabel('New API key').waitFor();
      expect((await admin.keys.list()).find((k) => k.name === 'budgeted')?.daily_cost_budget_usd).toBe(2.5);
      const row = p.getByRole('table', { name: 'API keys' }).getByRole('row', { name: /budgeted/ });
      expect(await row.textContent()).toContain('$2.50');
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('fits every view on a 390 px phone (no sideways scroll), names every control, and works by keyboard', async () => {
    stack.llm.setScript({ replies: [addCall(1, 2), 'Three.'] });
    const reply = await admin.chat({ message: 'one plus two' });
    const run = { id: reply.run_id };
    const views = [
      'chat',
      'sessions',
      `sessions/${reply.session_id}`,
      'runs',
      `runs/${run.id}`,
      'agents',
      'agents/analyst',
      'usage',
      'functions',
      'functions/add',
      'tasks',
      'keys',
      'health',
    ];
    for (const viewport of [DESKTOP, PHONE]) {
      const { page: p, problems, close } = await page(ADMIN_KEY, viewport);
      try {
        for (const view of views) {
          await p.goto(`${stack.base}/#/${view}`);
          await p.locator('main h2').first().waitFor();
          await p.waitForLoadState('networkidle');
          // the session's page lists its runs (long ids) once they have loaded
          if (view.startsWith('sessions/')) await p.locator('main').getByText(run.id).first().waitFor();
          await screenshot(
            p,
            `${view.replace(run.id, 'one').replace(reply.session_id, 'one').replaceAll('/', '-')}-${viewport.width}`,
            'scratch',
          );
          await expectNoSideScroll(p);
          expect(await unnamedControls(p), view).toEqual([]);
        }
        expect(problems).toEqual([]);
      } finally {
        await close();
      }
    }
    // by keyboard alone: to the Runs link, open a run, open its first step's prompt
    const { page: p, close } = await page(ADMIN_KEY, PHONE);
    try {
      await p.goto(`${stack.base}/#/chat`);
      await tabTo(p, 'Runs');
      await p.keyboard.press('Enter');
      await p.getByRole('heading', { name: 'Runs' }).waitFor();
      await tabTo(p, run.id);
      await p.keyboard.press('Enter');
      await p.getByRole('heading', { name: `Run ${run.id}` }).waitFor();
    } finally {
      await close();
    }
  });

  it('asks nothing of any origin but the gateway’s', () => {
    const origin = new URL(stack.base).origin;
    expect(requested.length).toBeGreaterThan(20);
    expect(requested.filter((url) => !url.startsWith('data:') && new URL(url).origin !== origin)).toEqual([]);
  });
});

/** The page is no wider than the window: nothing scrolls sideways (else what sticks out is named). */
async function expectNoSideScroll(page: Page): Promise<void> {
  const wide = (await page.evaluate(`(() => {
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth <= width) return [];
    const out = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node && out.length < 10; node = walker.nextNode()) {
      const range = document.createRange();
      range.selectNodeContents(node);
      const right = range.getBoundingClientRect().right;
      if (right > width + 0.5) out.push(node.parentElement.tagName.toLowerCase() + ' ' + Math.round(right) + 'px: ' + node.textContent.slice(0, 50));
    }
    for (const el of document.querySelectorAll('body *'))
      if (out.length < 10 && el.getBoundingClientRect().right > width + 0.5) out.push(el.tagName.toLowerCase() + '.' + el.className);
    return out.length ? out : ['the page is ' + document.documentElement.scrollWidth + 'px wide'];
  })()`)) as string[];
  expect(wide).toEqual([]);
}

/** Controls without an accessible name (a label, aria-label or text): each is listed by its HTML. */
async function unnamedControls(page: Page): Promise<string[]> {
  return (await page.evaluate(`[...document.querySelectorAll('button, input, select, textarea, a[href]')]
    .filter((el) => {
      const labelled = (el.labels && el.labels.length > 0) || el.getAttribute('aria-label') || el.getAttribute('aria-labelledby');
      const text = (el.textContent || '').trim();
      return !labelled && !(el.matches('button, a') && text);
    })
    .map((el) => el.outerHTML.slice(0, 120))`)) as string[];
}

/** Presses Tab until the focused element's text is `name` (at most 60 times). */
async function tabTo(page: Page, name: string): Promise<void> {
  for (let i = 0; i < 60; i++) {
    await page.keyboard.press('Tab');
    if (
      (
        (await page.evaluate('document.activeElement && document.activeElement.textContent')) as string
      )?.trim() === name
    )
      return;
  }
  throw new Error(`Tab never reached '${name}'`);
}
