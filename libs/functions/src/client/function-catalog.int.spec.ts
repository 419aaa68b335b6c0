import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Bus } from '@app/bus';
import { type AgentFunction, FunctionCatalog, FunctionHost, FunctionRegistry, Param } from '@app/functions';
import { Logger } from '@app/observability';
import { Routes } from '@app/contracts';
import { expectEventually, type NatsServer, startNatsServer } from '@app/testing';

const url = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const ns = `c${Date.now().toString(36)}${process.pid}`;
const quiet = new Logger({ service: 'test', level: 'error', format: 'json', write: () => undefined });

class NoParams {
  @Param({ description: 'unused' }) note?: string;
}

const named = (name: string, description = name): AgentFunction => ({
  name: `${ns}_${name}`,
  description,
  params: NoParams,
  execute: async () => ({}),
});

describe('FunctionCatalog (real NATS)', () => {
  const buses: Bus[] = [];
  const hosts: FunctionHost[] = [];
  let catalog: FunctionCatalog;

  async function startHost(provider: string, instance: string, registry: FunctionRegistry) {
    const bus = await Bus.connect({ url, name: `catalog-spec-${instance}` });
    const host = new FunctionHost({ bus, registry, logger: quiet, provider, instance, concurrency: 4 });
    await host.start();
    buses.push(bus);
    hosts.push(host);
  }

  beforeAll(async () => {
    const runner = new FunctionRegistry(1_000);
    runner.setGroup('builtin', [named('shared'), named('only_runner')]);
    const scheduler = new FunctionRegistry(1_000);
    scheduler.setGroup('scheduler', [named('only_scheduler')]);
    await startHost(`runner-${ns}`, 'r1', runner);
    await startHost(`runner-${ns}`, 'r2', runner);
    await startHost(`sched-${ns}`, 's1', scheduler);
    const bus = await Bus.connect({ url, name: 'catalog-spec-client' });
    buses.push(bus);
    catalog = new FunctionCatalog(bus, { gatherMs: 150, ttlMs: 60_000 });
    catalog.start();
  });
  afterAll(async () => {
    catalog.stop();
    for (const host of hosts) await host.stop(100);
    for (const bus of buses) await bus.drain();
  });

  it('lists each function once, across replicas and providers, sorted by name', async () => {
    // a gathering window can miss a reply on a loaded machine: ask again until all three providers answered
    const mine = await expectEventually(async () => {
      catalog.invalidate();
      const found = (await catalog.list()).filter((d) => d.name.startsWith(ns));
      expect(found.map((d) => d.name)).toEqual([`${ns}_only_runner`, `${ns}_only_scheduler`, `${ns}_shared`]);
      return found;
    });
    expect(mine.find((d) => d.name === `${ns}_only_scheduler`)).toMatchObject({
      provider: 'scheduler',
      timeout_ms: 1_000,
    });
  });

  it('finds one definition by name and nothing for an unknown one', async () => {
    expect(await catalog.get(`${ns}_shared`)).toMatchObject({
      description: 'shared',
      parameters: { type: 'object' },
    });
    expect(await catalog.get(`${ns}_nope`)).toBeUndefined();
  });

  it('sees a function that is added or removed, through the announcement, despite its cache', async () => {
    const registry = new FunctionRegistry(1_000);
    await startHost(`late-${ns}`, 'l1', registry);
    registry.setGroup('custom', [named('hot')]);
    await expectEventually(async () => expect(await catalog.get(`${ns}_hot`)).toBeDefined());
    registry.setGroup('custom', []);
    await expectEventually(async () =>
      expect((await catalog.list()).map((d) => d.name)).not.toContain(`${ns}_hot`),
    );
  });
});

describe('FunctionCatalog on a broker of its own', () => {
  it('gathers an empty catalogue again before listing it: a provider that answers later is listed at once', async () => {
    const nats = await startNatsServer();
    const bus = await Bus.connect({ url: nats.url, name: 'catalog-empty-spec' });
    try {
      const catalog = new FunctionCatalog(bus, { gatherMs: 100, ttlMs: 60_000 });
      expect(await catalog.list()).toEqual([]);
      // A provider that answers the catalogue but never announced itself (it started first, say).
      const definition = {
        name: 'late_fn',
        description: 'late',
        parameters: { type: 'object' as const, properties: {}, required: [] },
      };
      bus.serve(Routes.fnCatalog, () => ({ provider: 'late', instance: 'l1', functions: [definition] }));
      await bus.flush();
      expect((await catalog.list()).map((d) => d.name)).toEqual(['late_fn']);
    } finally {
      await bus.drain();
      await nats.stop();
    }
  });

  it('serves a stale catalogue at once while it gathers a fresh one', async () => {
    const nats = await startNatsServer();
    const bus = await Bus.connect({ url: nats.url, name: 'catalog-stale-spec' });
    try {
      let description = 'first';
      bus.serve(Routes.fnCatalog, () => ({
        provider: 'p',
        instance: 'p1',
        functions: [
          { name: 'f', description, parameters: { type: 'object' as const, properties: {}, required: [] } },
        ],
      }));
      await bus.flush();
      const catalog = new FunctionCatalog(bus, { gatherMs: 300, ttlMs: 50 });
      expect((await catalog.get('f'))?.description).toBe('first');
      description = 'second';
      await expectEventually(
        async () => {
          const started = performance.now();
          const found = await catalog.get('f');
          // A stale answer comes from the cache, well before a 300 ms gathering window could end.
          if (found?.description === 'first') expect(performance.now() - started).toBeLessThan(250);
          expect(found?.description).toBe('second');
        },
        { timeoutMs: 5_000 },
      );
    } finally {
      await bus.drain();
      await nats.stop();
    }
  });
});

describe('FunctionCatalog.require: not found, or only unavailable (a private NATS)', () => {
  let nats: NatsServer;
  let bus: Bus;
  let catalog: FunctionCatalog;
  const hosts: { host: FunctionHost; bus: Bus }[] = [];

  async function startHost(provider: string, registry: FunctionRegistry) {
    const hostBus = await Bus.connect({ url: nats.url, name: `require-spec-${provider}` });
    const host = new FunctionHost({
      bus: hostBus,
      registry,
      logger: quiet,
      provider,
      instance: 'i1',
      concurrency: 4,
    });
    await host.start();
    hosts.push({ host, bus: hostBus });
    return host;
  }

  beforeAll(async () => {
    nats = await startNatsServer();
    bus = await Bus.connect({ url: nats.url, name: 'require-spec-client' });
    catalog = new FunctionCatalog(bus, { gatherMs: 100, ttlMs: 60_000 });
    catalog.start();
  });
  afterAll(async () => {
    catalog.stop();
    for (const { host, bus: hostBus } of hosts) {
      await host.stop(100);
      await hostBus.drain();
    }
    await bus.drain();
    await nats.stop();
  });

  it('is unavailable while no provider answers at all', async () => {
    await expect(catalog.require(`${ns}_send`)).rejects.toMatchObject({
      code: 'unavailable',
      details: { part: 'function providers' },
    });
  });

  it('is unavailable, naming the provider, for a function whose provider stopped; not_found for a name nobody has', async () => {
    const runner = new FunctionRegistry(1_000);
    runner.setGroup('builtin', [named('send')]);
    const runnerHost = await startHost('function-runner', runner);
    const scheduler = new FunctionRegistry(1_000);
    scheduler.setGroup('scheduler', [named('delay')]);
    await startHost('scheduler', scheduler);
    await expectEventually(async () =>
      expect(await catalog.require(`${ns}_send`)).toMatchObject({ name: `${ns}_send` }),
    );
    await expect(catalog.require(`${ns}_nope`)).rejects.toMatchObject({ code: 'not_found' });

    await runnerHost.stop(100);
    await expectEventually(() =>
      expect(catalog.require(`${ns}_send`)).rejects.toMatchObject({
        code: 'unavailable',
        message: `function '${ns}_send' is unavailable: its provider (function-runner) does not answer right now`,
        details: { part: 'function-runner' },
      }),
    );
    expect(await catalog.require(`${ns}_delay`)).toMatchObject({ provider: 'scheduler' });
  });

  it('is not_found for a function its answering provider no longer lists', async () => {
    const registry = new FunctionRegistry(1_000);
    registry.setGroup('custom', [named('hot')]);
    await startHost('custom-runner', registry);
    await expectEventually(async () => expect(await catalog.require(`${ns}_hot`)).toBeDefined());
    registry.setGroup('custom', []);
    await expectEventually(() =>
      expect(catalog.require(`${ns}_hot`)).rejects.toMatchObject({ code: 'not_found' }),
    );
  });

  it('says NATS is unreachable when its connection is down', async () => {
    const closed = await Bus.connect({ url: nats.url, name: 'require-spec-closed' });
    await closed.drain();
    await expect(new FunctionCatalog(closed).require(`${ns}_send`)).rejects.toMatchObject({
      code: 'unavailable',
      details: { part: 'nats' },
    });
  });
});
