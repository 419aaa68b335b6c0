import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { parse } from 'yaml';
import { compose, containersOf, docker, inspect, SERVICES, type Stack, untilHealthy } from './stack';

const IMAGES = [...SERVICES, 'migrate'] as const;

/** A service's start: seconds from its container's start to its ready line, and to healthy. */
export interface StartTime {
  service: string;
  readyS: number;
  healthyS?: number;
}

/**
 * The last start of a service's container: to its `<name> <version> ready` log line, and to its
 * first passing health probe (the migration: to its exit).
 */
export async function startTime(service: string): Promise<StartTime> {
  const [id] = await containersOf(service);
  const [c] = JSON.parse(await docker(['inspect', id])) as {
    State: { StartedAt: string; FinishedAt: string; Health?: { Log: { Start: string; ExitCode: number }[] } };
  }[];
  const started = Date.parse(c.State.StartedAt);
  const since = (iso: string) => Math.round((Date.parse(iso) - started) / 100) / 10;
  if (service === 'migrate') return { service, readyS: since(c.State.FinishedAt) };
  const ready = (await docker(['logs', id]))
    .split('\n')
    .map((line) => {
      try {
        return JSON.parse(line) as { msg?: string; time?: string };
      } catch {
        return {};
      }
    })
    .find((line) => line.msg?.endsWith(' ready') && line.time && Date.parse(line.time) >= started);
  const passed = (c.State.Health?.Log ?? [])
    .filter((probe) => probe.ExitCode === 0 && Date.parse(probe.Start) >= started)
    .map((probe) => probe.Start)
    .sort();
  return {
    service,
    readyS: ready?.time ? since(ready.time) : Number.NaN,
    healthyS: passed.length ? since(passed[0]) : undefined,
  };
}

/** Every service's start as `up` started them: all at once, after the migration. */
export const startTimes = () => Promise.all([...SERVICES, 'migrate'].map((service) => startTime(service)));

/** The images: what they hold and how they run (checked), and their sizes and start times (reported). */
export function imageChecks(stack: Stack, started: () => StartTime[]): void {
  it('runs every service as the user node on a read-only root filesystem', async () => {
    for (const service of [...SERVICES, 'migrate']) {
      const state = await inspect((await containersOf(service))[0]);
      expect({ service, user: state.user, readOnly: state.readOnly }).toEqual({
        service,
        user: 'node',
        readOnly: true,
      });
    }
  });

  it('probes health on the port each service listens on, as docker-compose.yml configures it', async () => {
    const config = parse(await compose(['config'])) as {
      services: Record<string, { environment?: Record<string, string> }>;
    };
    for (const service of SERVICES) {
      const [image] = JSON.parse(await docker(['image', 'inspect', `agentchassis/${service}:latest`])) as {
        Config: { Healthcheck?: { Test: string[] } };
      }[];
      const probe = image.Config.Healthcheck?.Test.join(' ') ?? '';
      const variable = service === 'gateway' ? 'PORT' : 'METRICS_PORT';
      expect(probe, service).toContain(`process.env.${variable}`);
      expect(config.services[service].environment?.[variable], service).toBeDefined();
    }
  });

  it('leaves no build tool, source map or test helper in the runtime layer', async () => {
    const found = await docker([
      'run',
      '--rm',
      '--read-only',
      '--entrypoint',
      'sh',
      'agentchassis/gateway:latest',
      '-c',
      'find /app -name "*.map" | head -3; ls -d /app/node_modules/typescript /app/node_modules/prisma /app/node_modules/@swc/core /app/node_modules/vite /app/node_modules/vitest /app/dist/libs/testing 2>/dev/null; true',
    ]);
    expect(found.trim()).toBe('');
  });

  it('reports each image’s size and start time, all at once (up) and alone (restart)', async () => {
    const alone: StartTime[] = [];
    for (const service of SERVICES) {
      await compose(['restart', service], 120_000);
      await untilHealthy([service]);
      alone.push(await startTime(service));
    }
    const sizes: Record<string, number> = {};
    for (const image of IMAGES)
      sizes[image] = Number(
        (await docker(['image', 'inspect', '-f', '{{.Size}}', `agentchassis/${image}:latest`])).trim(),
      );
    const base = Number((await docker(['image', 'inspect', '-f', '{{.Size}}', 'node:24-slim'])).trim());
    const mb = (bytes: number) => Math.round(bytes / 1e6);
    const rows = started().map((t) => {
      const own = alone.find((a) => a.service === t.service);
      return {
        image: `agentchassis/${t.service}`,
        size_mb: mb(sizes[t.service]),
        over_base_mb: mb(sizes[t.service] - base),
        up_ready_s: t.readyS,
        up_healthy_s: t.healthyS ?? null,
        alone_ready_s: own?.readyS ?? null,
        alone_healthy_s: own?.healthyS ?? null,
      };
    });
    console.log(`image sizes and start times (the node:24-slim stand-in: ${mb(base)} MB)`);
    console.table(rows);
    if (process.env.AC_COMPOSE_WORK)
      writeFileSync(
        join(process.env.AC_COMPOSE_WORK, 'images.json'),
        JSON.stringify({ base_mb: mb(base), rows }, null, 2),
      );
    for (const row of rows) expect(row.up_ready_s, row.image).toBeGreaterThan(0);
    for (const t of alone) expect(t.readyS, t.service).toBeGreaterThan(0);
  });
}
