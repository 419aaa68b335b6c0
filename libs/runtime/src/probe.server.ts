import { createServer, type Server } from 'node:http';
import { register } from 'prom-client';
import type { HealthChecks } from './health-checks';

/**
 * The small HTTP server of the services without an API (METRICS_PORT): `/health` (alive),
 * `/ready` (every dependency check passes) and `/metrics` (Prometheus exposition).
 */
export async function startProbeServer(port: number, checks: HealthChecks): Promise<Server> {
  const server = createServer((req, res) => {
    void answer(req.url ?? '/', checks).then(({ status, type, body }) => {
      res.writeHead(status, { 'content-type': type });
      res.end(body);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '0.0.0.0', () => resolve());
  });
  return server;
}

async function answer(url: string, checks: HealthChecks) {
  const path = url.split('?')[0];
  if (path === '/health') return json(200, { status: 'ok' });
  if (path === '/ready') {
    const results = await checks.run();
    const down = Object.entries(results)
      .filter(([, s]) => s === 'down')
      .map(([name]) => name);
    return json(down.length ? 503 : 200, { status: down.length ? 'degraded' : 'ok', checks: results });
  }
  if (path === '/metrics') return { status: 200, type: register.contentType, body: await register.metrics() };
  return json(404, { error: { code: 'not_found', message: `no route ${path}` } });
}

function json(status: number, value: unknown) {
  return { status, type: 'application/json', body: JSON.stringify(value) };
}
