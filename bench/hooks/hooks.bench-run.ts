import { availableParallelism, cpus, loadavg } from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFINITION_DEFAULTS, RunState, type ToolCall } from '@app/agent-core';
import { Bus } from '@app/bus';
import type { ResolvedHook } from '@app/contracts';
import { FunctionClient } from '@app/functions';
import { startWebhookReceiver, type WebhookReceiver } from '@app/testing';
import {
  BusFunctions,
  type FunctionCatalogService,
  ProfileHooksFactory,
} from '../../apps/agent-executor/src/testing/parts';
import { serveFunctions } from '../../apps/agent-executor/src/testing/test-functions';
import { writeDocSection } from '../common/doc-section';
import { percentiles, sequentialLatencies } from '../functions/measure';

const HEADING = 'Agent hooks (bench/hooks)';
const URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const CALLS = 2_000;
const WARMUP = 200;
const ns = `h${Date.now().toString(36)}`;
const call: ToolCall = { name: 'add', params: { a: 1, b: 2 } };

type Row = ReturnType<typeof percentiles> & { label: string };

describe('hooks benchmark', () => {
  let bus: Bus | undefined;
  let receiver: WebhookReceiver | undefined;
  afterAll(async () => {
    await bus?.drain();
    await receiver?.close();
  });

  it('measures what one before_tool hook adds to a call', async () => {
    bus = await Bus.connect({ url: URL, name: 'bench-hooks' });
    serveFunctions(bus, [{ name: `${ns}_gate`, run: () => ({ data: { decision: 'allow' } }) }]);
    await bus.flush();
    receiver = await startWebhookReceiver(() => ({ body: { decision: 'allow' } }));
    const config = { functions: { http: { allowed_domains: ['127.0.0.1'] } } };
    const functions = new BusFunctions(new FunctionClient(bus), {} as FunctionCatalogService);
    const factory = new ProfileHooksFactory(config as never, functions);
    const run = new RunState(
      { runId: 'run_bench', sessionId: 'ses_bench' },
      { ...DEFINITION_DEFAULTS, name: 'bench' },
      {
        timeoutMs: 3_600_000,
      },
    );
    const hook = (target: Partial<ResolvedHook>): ResolvedHook => ({
      event: 'before_tool',
      timeout_ms: 2_000,
      policy: 'fail_open',
      ...target,
    });
    const rows: Row[] = [];
    const measure = async (label: string, hooks: ResolvedHook[]) => {
      const port = factory.forProfile(hooks);
      const samples = await sequentialLatencies(
        async () => expect(await port?.beforeTool?.(run, call)).toBeUndefined(),
        CALLS,
        WARMUP,
      );
      rows.push({ label, ...percentiles(samples) });
    };
    await measure('function hook over NATS (test-served function)', [hook({ function: `${ns}_gate` })]);
    await measure('webhook on 127.0.0.1 (guard, pinned connection, no keep-alive)', [
      hook({ url: `${receiver.url}/gate`, allow_private_network: true }),
    ]);
    run.close();
    const failed = run.trace.filter((step) => step.hook?.outcome !== 'ok');
    expect(failed).toEqual([]);
    const section = formatSection(rows);
    console.log(section);
    if (process.env.BENCH_WRITE === '1') writeDocSection(HEADING, section);
  });
});

function formatSection(rows: Row[]): string {
  const ms = (value: number) => value.toFixed(3);
  return `## ${HEADING}

Run from the repo root: \`npx vitest run --config bench/hooks/vitest.config.mts\` (prints this section;
with \`BENCH_WRITE=1\` it also replaces it here). Not part of \`npm test\`.
Measured ${new Date().toISOString().slice(0, 10)} on ${cpus()[0]?.model ?? 'unknown CPU'}, ${availableParallelism()} cores (\`nproc\`), Node ${process.version},
NATS 127.0.0.1:4222 on the same machine (1-minute load average at the end of the run: ${loadavg()[0].toFixed(1)},
other work on the machine included).

What one \`before_tool\` hook answering \`allow\` adds to a function call: the executor's hook port
(context, call, reply read, trace step, metrics), ${CALLS} sequential calls after ${WARMUP} unmeasured ones (ms).
Every hook of an event is called in turn, so each adds about this much; a hook on \`before_llm\` /
\`after_llm\` is paid on every model step.

| hook | p50 | p99 | mean |
| --- | ---: | ---: | ---: |
${rows.map((r) => `| ${r.label} | ${ms(r.p50)} | ${ms(r.p99)} | ${ms(r.mean)} |`).join('\n')}
`;
}
