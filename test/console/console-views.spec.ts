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

  it("shows a run's trace as a timeline with its usage, tools and finish reason", async () => {
    stack.llm.setScript({ replies: [addCall(4, 5), 'Nine.'] });
    const reply = await admin.chat({ message: 'Four plus five?' });
    const { page, close } = await openPage(browser);
    try {
      await signIn(page, stack.base, ADMIN_KEY);
      await page.getByRole('link', { name: 'Runs' }).click();
      await page.getByRole('link', { name: reply.run_id }).click();
      const trace = page.getByRole('table', { name: 'Trace' });
      await trace.waitFor();
      const rows = trace.locator('tbody tr');
      await expectEventually(async () => expect(await rows.count()).toBeGreaterThanOrEqual(2));
      const action = rows.filter({ hasText: 'action' }).first();
      expect(await action.textContent()).toMatch(/add \{\s*"a": 4,\s*"b": 5\s*\}/);
      expect(await action.textContent()).toContain('sum: 9');
      const facts = await page.locator('dl.facts').textContent();
      expect(facts).toContain('final');
      expect(facts).toMatch(/add ×1 \(\d+ ms\)/);
      expect(facts).toMatch(/\d+ prompt \+ \d+ completion tokens/);
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
});
