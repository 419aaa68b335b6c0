import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '@app/config';
import { Logger } from '@app/observability';
import { connectMigrated, type Db } from '@app/persistence';
import { migratedSqliteUrl, REPO_ROOT } from '@app/testing';
import { ApiKeyRepository } from './api-key.repository';
import { ApiKeysService } from './api-keys.service';

const quiet = new Logger({ service: 'test', level: 'error', format: 'json', write: () => undefined });
const dbs: Db[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(dbs.splice(0).map((db) => db.$disconnect()));
});

/** A gateway's key service on a real SQLite file, started as the gateway starts it. */
async function gatewayStart(
  url: string,
  adminKey?: string,
): Promise<{ keys: ApiKeysService; printed?: string }> {
  const { db } = await connectMigrated(url, REPO_ROOT);
  dbs.push(db);
  const config = loadConfig({ DATABASE_URL: url, ...(adminKey ? { AC_ADMIN_KEY: adminKey } : {}) });
  const keys = new ApiKeysService(new ApiKeyRepository(db), config, quiet);
  const out: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((text) => (out.push(String(text)), true));
  await keys.onApplicationBootstrap();
  vi.restoreAllMocks();
  return { keys, printed: /(ac_[\w-]+)/.exec(out.join(''))?.[1] };
}

const CHOSEN = 'ac_chosen_admin_key_0123456789abcdef';

describe('the admin key printed at first start', () => {
  it('stays valid when AC_ADMIN_KEY is set later, until revoked', async () => {
    const url = await migratedSqliteUrl();
    const { printed } = await gatewayStart(url);
    expect(printed).toBeDefined();
    const { keys } = await gatewayStart(url, CHOSEN);
    expect(await keys.authenticate(printed!)).toMatchObject({ principal: 'admin' });
    expect(await keys.authenticate(CHOSEN)).toMatchObject({ principal: 'admin' });

    const revoked = await keys.revokePrinted();
    expect(revoked).toHaveLength(1);
    expect(await keys.authenticate(printed!)).toBeNull();
    expect(await keys.authenticate(CHOSEN)).toMatchObject({ principal: 'admin' });
    expect(await keys.revokePrinted()).toEqual([]);
  });

  it('is not revoked while it is the only admin key', async () => {
    const url = await migratedSqliteUrl();
    const { keys, printed } = await gatewayStart(url);
    await expect(keys.revokePrinted()).rejects.toMatchObject({ code: 'conflict' });
    expect(await keys.authenticate(printed!)).not.toBeNull();
  });

  it('is revoked by `npm run keys:create -- --revoke-printed`', async () => {
    const url = await migratedSqliteUrl();
    const { printed } = await gatewayStart(url);
    await gatewayStart(url, CHOSEN);
    const cli = (...args: string[]) =>
      spawnSync(
        process.execPath,
        [join(REPO_ROOT, 'dist/apps/gateway/src/auth/create-key.cli.js'), ...args],
        {
          cwd: REPO_ROOT,
          env: { PATH: process.env.PATH ?? '', DATABASE_URL: url },
          encoding: 'utf8',
          timeout: 30_000,
        },
      );
    const first = cli('--revoke-printed');
    expect(first.status).toBe(0);
    expect(first.stderr).toMatch(/^revoked the admin key printed at first start: [\w-]+ \(ac_\S+…\)$/m);
    const { keys } = await gatewayStart(url, CHOSEN);
    expect(await keys.authenticate(printed!)).toBeNull();
    expect(cli('--revoke-printed').stderr).toMatch(/nothing to revoke/);
  });
});
