import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayUrl, migratedSqliteUrl, type ServiceProcess, startService } from '@app/testing';

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

describe('metrics exposition', () => {
  let gateway: ServiceProcess;
  let runner: ServiceProcess;

  beforeAll(async () => {
    const env = { DATABASE_URL: await migratedSqliteUrl(), PORT: '0', METRICS_PORT: '0' };
    [gateway, runner] = await Promise.all([
      startService('gateway', env),
      startService('function-runner', env),
    ]);
  });
  afterAll(async () => {
    await Promise.all([gateway?.stop(), runner?.stop()]);
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
});
