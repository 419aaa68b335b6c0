import { cpus } from 'node:os';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentChassisClient } from '@app/client';
import { add, type ChatStack, startChatStack } from '../../test/chat/chat-stack';
import { addCall } from '../../test/client/client-stack';
import { launchChromium, openPage, signIn } from '../../test/console/console-browser';

const CALLS_PER_STEP = 6;
const STEPS = 99;
const ROUNDS = 7;

/**
 * How long the console takes to show a long run's trace: a real run of 99 model steps with six
 * `add` calls each (594 actions), opened in Chromium from another view until every row is there.
 * The time includes fetching the trace from the gateway.
 */
describe('web console: rendering a long trace', () => {
  let stack: ChatStack;
  let browser: Browser;

  beforeAll(async () => {
    [stack, browser] = await Promise.all([
      startChatStack({
        functions: [add],
        agents: () => [
          {
            name: 'long',
            max_steps: STEPS + 1,
            max_tool_calls: 1_000,
            allowed_tools: ['add'],
            observation_max_len: 256,
          },
        ],
      }),
      launchChromium(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it('renders every row of a 594-action trace', async () => {
    const step = (i: number) => Array.from({ length: CALLS_PER_STEP }, (_, j) => addCall(i, j)).join('\n');
    stack.llm.setScript({ replies: [...Array.from({ length: STEPS }, (_, i) => step(i)), 'Done.'] });
    const client = new AgentChassisClient({ baseUrl: stack.base });
    const reply = await client.chat({ message: 'add a lot', agent: 'long' });
    const run = await client.runs.trace(reply.run_id);
    const rows = run.trace.length;
    expect(run.trace.filter((s) => s.kind === 'action').length).toBeGreaterThanOrEqual(
      STEPS * CALLS_PER_STEP,
    );
    const bytes = JSON.stringify(run).length;

    const { page, close } = await openPage(browser);
    const times: number[] = [];
    try {
      await signIn(page, stack.base, 'ac_any_key_auth_is_off');
      for (let round = 0; round < ROUNDS; round++) {
        await page.evaluate(`location.hash = '#/health'`);
        await page.getByRole('heading', { name: 'Health' }).waitFor();
        const ms = (await page.evaluate(`new Promise((resolve) => {
          const start = performance.now();
          location.hash = '#/runs/${reply.run_id}';
          const check = () => {
            const n = document.querySelectorAll('table.trace tbody tr').length;
            if (n >= ${rows}) requestAnimationFrame(() => resolve(performance.now() - start));
            else requestAnimationFrame(check);
          };
          check();
        })`)) as number;
        times.push(ms);
      }
    } finally {
      await close();
    }
    const sorted = [...times].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)];
    console.log(
      [
        '## Web console (bench/console)',
        '',
        'Run from the repo root: `npm run build && npx vitest run --config bench/console/vitest.config.mts`.',
        `Measured ${new Date().toISOString().slice(0, 10)} on ${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, Node ${process.version}, Debian's Chromium headless.`,
        '',
        '| what | rows | trace JSON | median | min | max |',
        '|---|---|---|---|---|---|',
        `| open a run's trace from another view until every row is drawn (fetch included), ${ROUNDS} rounds | ${rows} | ${(bytes / 1024).toFixed(0)} KB | ${median.toFixed(0)} ms | ${sorted[0].toFixed(0)} ms | ${sorted[sorted.length - 1].toFixed(0)} ms |`,
      ].join('\n'),
    );
  });
});
