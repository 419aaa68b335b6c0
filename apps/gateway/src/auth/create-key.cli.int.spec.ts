import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { connectMigrated } from '@app/persistence';
import { migratedSqliteUrl, REPO_ROOT } from '@app/testing';

/** `npm run keys:create -- <args>`, as the built command runs it, on its own SQLite file. */
function keysCreate(url: string, ...args: string[]) {
  return spawnSync(
    process.execPath,
    [join(REPO_ROOT, 'dist/apps/gateway/src/auth/create-key.cli.js'), ...args],
    {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? '', DATABASE_URL: url },
      encoding: 'utf8',
      timeout: 30_000,
    },
  );
}

async function keyNames(url: string): Promise<string[]> {
  const { db } = await connectMigrated(url, REPO_ROOT);
  try {
    return (await db.apiKey.findMany({ select: { name: true } })).map((k) => k.name);
  } finally {
    await db.$disconnect();
  }
}

describe('npm run keys:create', () => {
  it('answers --help with its usage and creates nothing', async () => {
    const url = await migratedSqliteUrl();
    const help = keysCreate(url, '--help');
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^usage: npm run keys:create -- <name>/);
    expect(await keyNames(url)).toEqual([]);
  });

  it.each([
    [['--', '--help'], "'--help' looks like an option"],
    [['ops', '--sopes', 'chat'], "Unknown option '--sopes'"],
    [['ops', '--principal'], 'argument missing'],
    [[], 'missing the key name'],
  ])('refuses %j in one line, exit 1, creating nothing', async (args, message) => {
    const url = await migratedSqliteUrl();
    const refused = keysCreate(url, ...args);
    expect(refused.status).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr).toContain(message);
    expect(await keyNames(url)).toEqual([]);
  });

  it('still creates a named key with scopes', async () => {
    const url = await migratedSqliteUrl();
    const made = keysCreate(url, 'ops-team', 'chat', '--principal', 'ops');
    expect(made.status).toBe(0);
    expect(made.stdout).toMatch(/^ac_\S+\n$/);
    expect(await keyNames(url)).toEqual(['ops-team']);
  });
});
