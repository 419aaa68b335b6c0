import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { REPO_ROOT } from '@app/testing';

export const CHROMIUM = '/usr/bin/chromium';
// The README shows these: `UPDATE_SCREENSHOTS=1` writes them to docs/console; otherwise each run
// still takes them (the page must render) into a folder of its own, leaving the tree clean.
export const SCREENSHOTS = process.env.UPDATE_SCREENSHOTS
  ? join(REPO_ROOT, 'docs/console')
  : mkdtempSync(join(tmpdir(), 'ac-console-shots-'));

/** Debian's Chromium, headless, with nothing of its own phoning home. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
}

/** A page that records every URL it requests and every error it logs or throws. */
export async function openPage(browser: Browser, viewport = { width: 1280, height: 800 }) {
  const context = await browser.newContext({ viewport });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  const requests: string[] = [];
  const problems: string[] = [];
  page.on('request', (req) => requests.push(req.url()));
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console: ${msg.text()}`);
  });
  return { page, requests, problems, close: () => context.close() };
}

export async function signIn(page: Page, base: string, key: string): Promise<void> {
  await page.goto(base);
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}

/** Pictures a test takes to be looked at but not shown in the README: always a folder of their own. */
const SCRATCH = process.env.UPDATE_SCREENSHOTS
  ? mkdtempSync(join(tmpdir(), 'ac-console-shots-'))
  : SCREENSHOTS;

export async function screenshot(
  page: Page,
  name: string,
  where: 'docs' | 'scratch' = 'docs',
): Promise<void> {
  const folder = where === 'docs' ? SCREENSHOTS : SCRATCH;
  mkdirSync(folder, { recursive: true });
  await page.screenshot({ path: join(folder, `${name}.png`), fullPage: true });
}
