import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { type DatabaseProvider, pgConnection, sqlitePath } from './database-url';

/**
 * Driver-adapter factories for the WASM schema engine, with three adapter problems of Prisma 7.10
 * and `@prisma/schema-engine-wasm` 8.1.0-2 (the versions pinned in package.json) worked around.
 * `persistence.int.spec.ts` applies the migrations through them on SQLite and PostgreSQL;
 * `npm run db:migrate -- create <name>` diffs against both databases' shadow copies through them.
 */
export async function migrationAdapterFactory(provider: DatabaseProvider, url: string) {
  return provider === 'sqlite' ? sqliteFactory(url) : postgresFactory(url);
}

async function sqliteFactory(url: string) {
  const { PrismaBetterSqlite3 } = await import('@prisma/adapter-better-sqlite3');
  const file = sqlitePath(url);
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const factory = new PrismaBetterSqlite3({ url: file }, { shadowDatabaseUrl: ':memory:' });
  // Workaround 1: the engine sends a whole multi-statement migration through executeRaw on the
  // shadow database, which better-sqlite3 refuses; run such scripts with executeScript instead.
  const connectToShadowDb = factory.connectToShadowDb.bind(factory);
  factory.connectToShadowDb = async () => {
    const adapter = await connectToShadowDb();
    const executeRaw = adapter.executeRaw.bind(adapter);
    adapter.executeRaw = async (query) => {
      try {
        return await executeRaw(query);
      } catch (err) {
        if (!/more than one statement/.test((err as Error)?.message) || query.args?.length) throw err;
        await adapter.executeScript(query.sql);
        return 0;
      }
    };
    return adapter;
  };
  return factory;
}

let charTypePatched = false;

async function postgresFactory(url: string) {
  const [{ PrismaPg }, { default: pg }] = await Promise.all([import('@prisma/adapter-pg'), import('pg')]);
  patchPgCharType(pg);
  const config = pgConnection(url);
  const factory = new PrismaPg(config);
  // Workaround 3: adapter-pg drops its temporary shadow database before closing its pool
  // ("being accessed by other users"); create and drop it ourselves, in the right order.
  factory.connectToShadowDb = async () => {
    const main = await factory.connect();
    const name = `prisma_shadow_${globalThis.crypto.randomUUID().replace(/-/g, '')}`;
    await main.executeScript(`CREATE DATABASE "${name}"`);
    const shadow = await new PrismaPg({ ...config, database: name }).connect();
    const dispose = shadow.dispose.bind(shadow);
    shadow.dispose = async () => {
      await dispose();
      await main.executeScript(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await main.dispose();
    };
    return shadow;
  };
  return factory;
}

/** Workaround 2: adapter-pg cannot map PostgreSQL's internal `"char"` (OID 18); read it as text. */
function patchPgCharType(pg: typeof import('pg')): void {
  if (charTypePatched) return;
  charTypePatched = true;
  const query = (pg as unknown as { Query: { prototype: Record<string, (...a: unknown[]) => unknown> } })
    .Query;
  const original = query.prototype.handleRowDescription;
  query.prototype.handleRowDescription = function (this: unknown, msg: unknown) {
    for (const field of (msg as { fields: { dataTypeID: number }[] }).fields) {
      if (field.dataTypeID === 18) field.dataTypeID = 25;
    }
    return original.call(this, msg);
  };
}
