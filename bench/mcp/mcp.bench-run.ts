import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { Bus } from '@app/bus';
import { Routes } from '@app/contracts';
import { FunctionClient } from '@app/functions';
import { type NatsServer, REPO_ROOT, type ServiceProcess, startNatsServer, startService } from '@app/testing';
import { percentiles, sequentialLatencies } from '../functions/measure';
import { formatSection, type McpBenchResults, writeSection } from './report';

const EVERYTHING = join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const ROUNDS = 10;
const CALLS_PER_ROUND = 500;
const WARMUP = 300;
const ARGS = { message: 'ping' };

describe('MCP benchmark', () => {
  let nats: NatsServer | undefined;
  let runner: ServiceProcess | undefined;
  let bus: Bus | undefined;
  let direct: Client | undefined;
  afterAll(async () => {
    await direct?.close();
    await bus?.drain();
    await runner?.stop();
    await nats?.stop();
  });

  it('measures an MCP tool call through the runner against the SDK client calling the server directly', async () => {
    nats = await startNatsServer();
    const config = join(mkdtempSync(join(tmpdir(), 'ac-bench-mcp-')), 'agentchassis.yaml');
    const server = { command: process.execPath, args: [EVERYTHING, 'stdio'] };
    writeFileSync(
      config,
      stringify({ mcp: { servers: [{ name: 'everything', transport: 'stdio', ...server }] } }),
    );
    runner = await startService('function-runner', {
      AC_CONFIG: config,
      NATS_URL: nats.url,
      FUNCTIONS_DIR: join(config, '..', 'none'),
    });
    bus = await Bus.connect({ url: nats.url, name: 'bench-mcp' });
    bus.serve(Routes.fnCallsRecord, ({ calls }) => ({ recorded: calls.length }));
    await bus.flush();
    const client = new FunctionClient(bus);
    direct = new Client({ name: 'bench-direct', version: '1.0.0' });
    await direct.connect(new StdioClientTransport({ ...server, stderr: 'ignore' }));

    const viaPlatform = async () => {
      const reply = await client.call('everything_echo', ARGS, { timeoutMs: 10_000 });
      if (reply.status !== 'success') throw new Error(JSON.stringify(reply));
    };
    const viaSdk = async () => {
      const result = await direct!.callTool({ name: 'echo', arguments: ARGS });
      if (result.isError) throw new Error(JSON.stringify(result));
    };
    await sequentialLatencies(viaPlatform, 0, WARMUP);
    await sequentialLatencies(viaSdk, 0, WARMUP);

    const platform: number[] = [];
    const sdk: number[] = [];
    const rounds: McpBenchResults['rounds'] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const p = await sequentialLatencies(viaPlatform, CALLS_PER_ROUND, 0);
      const d = await sequentialLatencies(viaSdk, CALLS_PER_ROUND, 0);
      platform.push(...p);
      sdk.push(...d);
      rounds.push(percentiles(p).p50 - percentiles(d).p50);
    }
    const results: McpBenchResults = {
      rounds,
      callsPerRound: CALLS_PER_ROUND,
      warmup: WARMUP,
      platform: percentiles(platform),
      sdk: percentiles(sdk),
    };
    expect(results.platform.n).toBe(ROUNDS * CALLS_PER_ROUND);
    const section = formatSection(results);
    process.stdout.write(`\n${section}\n`);
    if (process.env.BENCH_WRITE === '1') writeSection(join(REPO_ROOT, 'docs/benchmarks.md'), section);
  });
});
