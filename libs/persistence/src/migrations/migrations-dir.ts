import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { DatabaseProvider } from './database-url';

/** Where the committed schema and migrations of one database live. */
export function prismaDir(provider: DatabaseProvider, root = process.cwd()): string {
  return resolve(root, 'prisma', provider);
}

export function migrationNames(dir: string): string[] {
  const migrations = join(dir, 'migrations');
  if (!existsSync(migrations)) return [];
  return readdirSync(migrations, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(migrations, d.name, 'migration.sql')))
    .map((d) => d.name)
    .sort();
}

/** The engine's view of the migrations folder. */
export function migrationsList(dir: string) {
  const migrations = join(dir, 'migrations');
  mkdirSync(migrations, { recursive: true });
  const lock = join(migrations, 'migration_lock.toml');
  return {
    baseDir: migrations,
    lockfile: { path: 'migration_lock.toml', content: existsSync(lock) ? readFileSync(lock, 'utf8') : null },
    shadowDbInitScript: '',
    migrationDirectories: migrationNames(dir).map((name) => ({
      path: name,
      migrationFile: {
        path: 'migration.sql',
        content: { tag: 'ok' as const, value: readFileSync(join(migrations, name, 'migration.sql'), 'utf8') },
      },
    })),
  };
}

export function writeMigration(
  dir: string,
  name: string,
  sql: string,
  connector: string,
  now = new Date(),
): string {
  const stamp = now.toISOString().replace(/\D/g, '').slice(0, 14);
  const folder = join(dir, 'migrations', `${stamp}_${name}`);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'migration.sql'), sql);
  writeFileSync(join(dir, 'migrations', 'migration_lock.toml'), `provider = "${connector}"\n`);
  return folder;
}
