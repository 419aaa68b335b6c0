import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentChassisClient } from '@app/client';
import { expectEventually } from '@app/testing';
import { ADMIN_KEY, addCall, type ClientStack, startClientStack } from '../client/client-stack';
import { launchChromium, openPage, screenshot, signIn } from './console-browser';

describe('the web console in Chromium against the four services', () => {
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

  it('serves the page with a strict CSP and its hashed files as immutable', async () => {
    const page = await fetch(`${stack.base}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const html = await page.text();
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const asset = await fetch(`${stack.base}${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.get('content-type')).toContain('javascript');
    expect((await fetch(`${stack.base}/assets/nope-123.js`)).status).toBe(404);
    expect((await fetch(`${stack.base}/assets/..%2Fpackage.json`)).status).toBe(404);
  });

  it('signs in with an API key kept in sessionStorage only, and forgets it on sign-out', async () => {
    const { page, requests, problems, close } = await openPage(browser);
    try {
      await page.goto(stack.base);
      await page.getByLabel('API key').fill('ac_not_a_real_key_000');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expectEventually(async () =>
        expect(await page.getByRole('alert').textContent()).toContain('unknown or revoked API key'),
      );

      await signIn(page, stack.base, ADMIN_KEY);
      const nav = page.getByRole('navigation', { name: 'Views' });
      for (const name of ['Chat', 'Sessions', 'Runs', 'Agents', 'Functions', 'Tasks', 'Keys', 'Health'])
        await expectEventually(async () =>
          expect(await nav.getByRole('link', { name, exact: true }).count()).toBe(1),
        );
      // evaluated in the page (a string: this file is type-checked without the DOM's types)
      const stored = await page.evaluate(
        '({ session: Object.values(sessionStorage), local: localStorage.length, cookie: document.cookie })',
      );
      expect(stored).toEqual({ session: [ADMIN_KEY], local: 0, cookie: '' });
      await screenshot(page, 'sign-in');

      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByLabel('API key').waitFor();
      expect(await page.evaluate('sessionStorage.length')).toBe(0);

      // nothing from another origin, on the sign-in page or after it
      const origin = new URL(stack.base).origin;
      expect(requests.length).toBeGreaterThan(2);
      expect(requests.filter((url) => new URL(url).origin !== origin && !url.startsWith('data:'))).toEqual(
        [],
      );
      expect(problems.filter((p) => !p.includes('401'))).toEqual([]);
    } finally {
      await close();
    }
  });

  it('chats: a turn that calls a function shows the call, its result and the answer', async () => {
    stack.llm.setScript({ replies: [`I will add them. ${addCall(2, 3)}`, 'The sum is five.'] });
    const { page, problems, close } = await openPage(browser);
    try {
      await signIn(page, stack.base, ADMIN_KEY);
      await page.getByRole('link', { name: 'Chat' }).click();
      await page.getByLabel('Message').fill('What is 2 + 3?');
      await page.getByLabel('Message').press('Enter');
      const answer = page.getByLabel('Answer');
      await expectEventually(async () => expect(await answer.textContent()).toBe('The sum is five.'), {
        timeoutMs: 20_000,
      });
      const tool = page.locator('details.tool');
      await expectEventually(async () =>
        expect(await tool.locator('summary').textContent()).toMatch(/add — success/),
      );
      await tool.locator('summary').click();
      expect(await page.getByLabel('add result').textContent()).toContain('"sum": 5');
      expect(await page.getByLabel('add arguments').textContent()).toContain('"a": 2');
      await expectEventually(async () =>
        expect(await page.locator('.meta').textContent()).toMatch(/finish: final.*tokens: \d+ in, \d+ out/),
      );
      expect(await page.locator('.thought').textContent()).toContain('I will add them.');
      expect(problems).toEqual([]);
      await screenshot(page, 'chat');
    } finally {
      await close();
    }
  });

  it('shows health as /health reports it', async () => {
    const report = await admin.health();
    const { page, close } = await openPage(browser);
    try {
      await signIn(page, stack.base, ADMIN_KEY);
      await page.getByRole('link', { name: 'Health' }).click();
      const row = (name: string) => page.getByRole('row', { name: new RegExp(`^${name} `) });
      await expectEventually(async () => expect(await row('NATS').textContent()).toBe(`NATS${report.nats}`));
      expect(await row('function-runner').textContent()).toBe(
        `function-runner${report.services['function-runner']}`,
      );
      expect(await row('llm').textContent()).toBe(`llm${report.llm}`);
      await screenshot(page, 'health');
    } finally {
      await close();
    }
  });

  it('cancels a running turn from its Cancel button', async () => {
    stack.llm.setScript({ replies: [{ text: 'too late', latencyMs: 20_000 }] });
    const asked = stack.llm.requests().length;
    const { page, close } = await openPage(browser);
    try {
      await signIn(page, stack.base, ADMIN_KEY);
      await page.getByLabel('Message').fill('take your time');
      await page.getByLabel('Message').press('Enter');
      await expectEventually(() => expect(stack.llm.requests().length).toBeGreaterThan(asked));
      await page.getByRole('button', { name: 'Cancel' }).click();
      await expectEventually(async () =>
        expect(await page.locator('.meta').textContent()).toContain('finish: cancelled'),
      );
      expect(await page.getByRole('button', { name: 'Cancel' }).count()).toBe(0);
      const runs = await admin.runs.list({ limit: 1 });
      expect(runs.items[0]).toMatchObject({ status: 'cancelled', input: 'take your time' });
    } finally {
      await close();
    }
  });

  it('approves a plan held for approval from the page and shows its steps run', async () => {
    stack.llm.setScript({
      replies: ['{"steps":[{"description":"add them","tool":"add","params":{"a":4,"b":4}}]}', 'Eight.'],
    });
    const { page, close } = await openPage(browser);
    try {
      await signIn(page, stack.base, ADMIN_KEY);
      await expectEventually(async () =>
        expect(await page.getByLabel('Agent').locator('option').count()).toBeGreaterThan(2),
      );
      // the default agent offered once, by its name
      expect(
        (await page.getByLabel('Agent').locator('option').allTextContents()).filter((t) => /default/.test(t)),
      ).toEqual(['default']);
      await page.getByLabel('Agent').selectOption('approver');
      await page.getByLabel('Message').fill('Four plus four');
      await page.getByLabel('Message').press('Enter');
      const plan = page.locator('.plan');
      await expectEventually(async () => expect(await plan.textContent()).toMatch(/add them.*\[pending\]/));
      await expectEventually(async () =>
        expect(await page.locator('.meta').textContent()).toContain('finish: awaiting_approval'),
      );
      await screenshot(page, 'chat-plan');
      await page.getByRole('button', { name: 'Approve' }).click();
      await expectEventually(async () =>
        expect(await page.getByLabel('Answer').textContent()).toBe('Eight.'),
      );
      await expectEventually(async () => {
        expect(await plan.textContent()).toMatch(/add them.*\[completed\]/);
        expect(await page.locator('.meta').textContent()).toContain('finish: final');
      });
      expect(await page.getByRole('button', { name: 'Approve' }).count()).toBe(0);
    } finally {
      await close();
    }
  });

  describe('a function call held for approval', () => {
    const addsRun = () => stack.functions.calls.filter((c) => c.name === 'add').map((c) => c.request.params);

    async function askGuarded(page: Page, message: string) {
      await signIn(page, stack.base, ADMIN_KEY);
      await page.getByLabel('Agent').selectOption('guarded');
      await page.getByLabel('Message').fill(message);
      await page.getByLabel('Message').press('Enter');
      await expectEventually(async () =>
        expect(await page.locator('.meta').textContent()).toContain('finish: awaiting_approval'),
      );
    }

    it('shows the call with its arguments; Approve runs it once and streams the answer', async () => {
      stack.llm.setScript({ replies: [`I will add them. ${addCall(2, 3)}`, 'The sum is five.'] });
      const before = addsRun().length;
      const { page, problems, close } = await openPage(browser);
      try {
        await askGuarded(page, 'Two plus three, once I approve');
        const held = page.getByRole('group', { name: 'Run add?' });
        expect(await held.getByLabel('add held arguments').textContent()).toMatch(/"a": 2,\s+"b": 3/);
        expect(addsRun().length).toBe(before);
        await screenshot(page, 'chat-held');
        await page.setViewportSize({ width: 390, height: 844 });
        expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);

        await held.getByRole('button', { name: 'Approve' }).click();
        await expectEventually(async () =>
          expect(await page.getByLabel('Answer').textContent()).toBe('The sum is five.'),
        );
        await expectEventually(async () =>
          expect(await page.locator('.meta').textContent()).toContain('finish: final'),
        );
        expect(addsRun().slice(before)).toEqual([{ a: 2, b: 3 }]);
        expect(await held.count()).toBe(0);
        expect(problems).toEqual([]);
      } finally {
        await close();
      }
    });

    it('decides two calls one by one: the call left stays offered, a rejection’s reason reaches the model', async () => {
      stack.llm.setScript({
        replies: [`Adding both. ${addCall(2, 3)}${addCall(4, 4)}`, 'Five; the other one was refused.'],
      });
      const before = addsRun().length;
      const { page, problems, close } = await openPage(browser);
      try {
        await askGuarded(page, 'Two plus three and four plus four');
        const held = page.getByRole('group', { name: 'Run add?' });
        expect(await held.count()).toBe(2);
        await held.first().getByRole('button', { name: 'Approve' }).click();
        await expectEventually(async () => {
          expect(await held.count()).toBe(1);
          expect(await page.locator('.meta').textContent()).toContain('finish: awaiting_approval');
        });
        expect(await held.getByLabel('add held arguments').textContent()).toMatch(/"a": 4,\s+"b": 4/);

        // by keyboard: the reason, then Tab to Reject and Enter
        await held.getByLabel('Reason (optional)').fill('only the first sum, please');
        await page.keyboard.press('Tab');
        await page.keyboard.press('Enter');
        await expectEventually(async () =>
          expect(await page.getByLabel('Answer').textContent()).toBe('Five; the other one was refused.'),
        );
        expect(addsRun().slice(before)).toEqual([{ a: 2, b: 3 }]);
        expect(JSON.stringify(stack.llm.requests().at(-1)?.body)).toContain('only the first sum, please');
        expect(await held.count()).toBe(0);
        expect(problems).toEqual([]);
      } finally {
        await close();
      }
    });
  });

  it('is usable by keyboard alone and fits a 390×844 phone without sideways scrolling', async () => {
    stack.llm.setScript({ replies: ['Hello from a phone.'] });
    const { page, close } = await openPage(browser, { width: 390, height: 844 });
    try {
      await page.goto(stack.base);
      await page.keyboard.press('Tab');
      expect(await page.evaluate('document.activeElement.id')).toBe('api-key');
      await page.keyboard.type(ADMIN_KEY);
      await page.keyboard.press('Enter');
      await page.getByRole('button', { name: 'Sign out' }).waitFor();
      await page.getByLabel('Message').focus();
      await page.keyboard.type('hi');
      await page.keyboard.press('Enter');
      await expectEventually(async () =>
        expect(await page.getByLabel('Answer').textContent()).toBe('Hello from a phone.'),
      );
      for (const view of ['Chat', 'Runs', 'Functions', 'Tasks', 'Keys', 'Health']) {
        await page.getByRole('link', { name: view, exact: true }).click();
        await page.getByRole('heading', { name: view }).first().waitFor();
        expect(await page.evaluate('document.documentElement.scrollWidth'), view).toBeLessThanOrEqual(390);
      }
      await page.keyboard.press('Tab');
      expect(
        await page.evaluate('getComputedStyle(document.activeElement).outlineStyle'),
        'visible focus',
      ).toBe('solid');
      await screenshot(page, 'phone');
    } finally {
      await close();
    }
  });
});
