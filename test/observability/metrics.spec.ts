import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  gatewayUrl,
  migratedSqliteUrl,
  type NatsServer,
  type ServiceProcess,
  startNatsServer,
  startService,
} from '@app/testing';

/** promtool's complaints about the project's own metrics (prom-client's defaults draw some we don't own). */
function promtoolProblems(exposition: string): string[] {
  const result = spawnSync('promtool', ['check', 'metrics'], { input: exposition, encoding: 'utf8' });
  if (result.error)
    throw new Error(`promtool is required (Debian package 'prometheus'): ${result.error.message}`);
  return `${result.stdout}${result.stderr}`
    .split('\n')
    .filter((line) => line.trim() && !/^(nodejs_|process_)/.test(line));
}

function probeUrl(service: ServiceProcess): string {
  const match = /probes http:\/\/[^:]+:(\d+)/.exec(service.output());
  if (!match) throw new Error(`no probe endpoint in:\n${service.output()}`);
  return `http://127.0.0.1:${match[1]}`;
}

async function probeMetrics(service: ServiceProcess): Promise<string> {
  return (await fetch(`${probeUrl(service)}/metrics`)).text();
}

describe('metrics exposition', () => {
  let nats: NatsServer;
  let gateway: ServiceProcess;
  let runner: ServiceProcess;
  let scheduler: ServiceProcess;
  let executor: ServiceProcess;

  beforeAll(async () => {
    nats = await startNatsServer();
    const env = {
      DATABASE_URL: await migratedSqliteUrl(),
      NATS_URL: nats.url,
      PORT: '0',
      METRICS_PORT: '0',
    };
    [gateway, runner, scheduler, executor] = await Promise.all([
      startService('gateway', env),
      startService('function-runner', env),
      startService('scheduler', { ...env, SCHEDULER_QUEUE_PREFIX: `metrics-${Date.now()}` }),
      startService('agent-executor', env),
    ]);
  });
  afterAll(async () => {
    await Promise.all([gateway?.stop(), runner?.stop(), scheduler?.stop(), executor?.stop()]);
    await nats?.stop();
  });

  it("serves the gateway's metrics on its HTTP port, clean under promtool", async () => {
    await fetch(`${gatewayUrl(gateway)}/health/live`);
    const res = await fetch(`${gatewayUrl(gateway)}/metrics`);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toMatch(
      /^ac_http_requests_total\{method="GET",route="\/health\/live",status="200",service="gateway"\} [1-9]/m,
    );
    expect(text).toMatch(/^process_resident_memory_bytes/m);
    expect(promtoolProblems(text)).toEqual([]);
  });

  it('labels HTTP metrics by route pattern, never by raw path', async () => {
    await fetch(`${gatewayUrl(gateway)}/no/such/path/123`);
    const text = await (await fetch(`${gatewayUrl(gateway)}/metrics`)).text();
    expect(text).not.toMatch(/no\/such\/path/);
    expect(text).toMatch(/route="unmatched",status="404"/);
  });

  it('serves /health, /ready and clean /metrics on the probe port of a non-HTTP service', async () => {
    const base = probeUrl(runner);
    expect((await fetch(`${base}/health`)).status).toBe(200);
    expect((await fetch(`${base}/ready`)).status).toBe(200);
    const text = await (await fetch(`${base}/metrics`)).text();
    expect(text).toMatch(/service="function-runner"/);
    expect(promtoolProblems(text)).toEqual([]);
  });

  // Counters whose label values are known at start exist from the first scrape, at 0, so an
  // absent() alert tells "nothing happened yet" from "the service is not there".
  it('exports the counters of known label values at 0 before the first event, clean under promtool', async () => {
    const runnerText = await probeMetrics(runner);
    for (const status of ['success', 'error', 'timeout', 'cancelled'])
      expect(runnerText).toMatch(
        new RegExp(
          `^ac_function_calls_total\\{function="send_message",status="${status}",service="function-runner"\\} 0$`,
          'm',
        ),
      );
    const schedulerText = await probeMetrics(scheduler);
    for (const status of ['completed', 'failed', 'missed', 'unknown'])
      expect(schedulerText).toMatch(
        new RegExp(`^ac_cron_executions_total\\{status="${status}",service="scheduler"\\} 0$`, 'm'),
      );
    expect(schedulerText).toMatch(
      /^ac_function_calls_total\{function="delay_list",status="error",service="scheduler"\} 0$/m,
    );
    const executorText = await probeMetrics(executor);
    for (const reason of ['final', 'max_steps', 'timeout', 'error', 'parse_error'])
      expect(executorText).toMatch(
        new RegExp(
          `^ac_runs_total\\{agent="default",finish_reason="${reason}",service="agent-executor"\\} 0$`,
          'm',
        ),
      );
    expect(executorText).toMatch(
      /^ac_protocol_parse_failures_total\{protocol="xml-toon",service="agent-executor"\} 0$/m,
    );
    expect(executorText).toMatch(/^ac_tokens_saved_total\{service="agent-executor"\} 0$/m);
    expect(executorText).toMatch(/^ac_run_journal_unwritten_total\{service="agent-executor"\} 0$/m);
    expect(executorText).toMatch(/^ac_run_takeovers_total\{outcome="resumed",service="agent-executor"\} 0$/m);
    expect(executorText).toMatch(/^ac_run_ends_fenced_total\{service="agent-executor"\} 0$/m);
    for (const text of [runnerText, schedulerText, executorText]) expect(promtoolProblems(text)).toEqual([]);
  });
});
