import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';
import { type DatabaseProvider, providerOf } from './database-url';
import { migrationAdapterFactory } from './migration-adapters';
import { migrationsList, prismaDir, writeMigration } from './migrations-dir';

/* eslint-disable @typescript-eslint/no-explicit-any -- the WASM engine's API is untyped JSON-RPC */
type SchemaEngine = any;

/**
 * Tables written by hand in the migrations, which Prisma's schema cannot express (the memory
 * segments' full-text indexes: SQLite's FTS5 table with its shadow tables, PostgreSQL's table of
 * tsvectors): left out of the schema comparison, so a new migration does not drop them.
 */
const HAND_WRITTEN_TABLES: Record<DatabaseProvider, string[]> = {
  sqlite: ['MemorySegmentFts', ...['config', 'data', 'docsize', 'idx'].map((t) => `MemorySegmentFts_${t}`)],
  postgresql: ['public.MemorySegmentSearch'],
};
const filtersFor = (provider: DatabaseProvider): { externalTables: string[]; externalEnums: string[] } => ({
  externalTables: HAND_WRITTEN_TABLES[provider],
  externalEnums: [],
});

/**
 * Runs Prisma migrations with the official WASM schema engine through driver adapters, so that no
 * engine binary has to be downloaded. The same committed migrations also work with `prisma migrate`.
 */
export class Migrator {
  private constructor(
    private readonly engine: SchemaEngine,
    private readonly dir: string,
    private readonly schemaPath: string,
    private readonly schema: string,
    private readonly connections: { dispose(): Promise<void> }[],
    private readonly filters: ReturnType<typeof filtersFor>,
  ) {}

  static async open(url: string, root = process.cwd()): Promise<Migrator> {
    const provider: DatabaseProvider = providerOf(url);
    const dir = prismaDir(provider, root);
    const schemaPath = join(dir, 'schema.prisma');
    const schema = readFileSync(schemaPath, 'utf8');
    const SchemaEngine = await loadSchemaEngine();
    const factory = await migrationAdapterFactory(provider, url);
    const connections: { dispose(): Promise<void> }[] = [];
    const connect = factory.connect.bind(factory);
    factory.connect = async () => {
      const connection = await connect();
      connections.push(connection);
      return connection as never;
    };
    const adapter = bindMigrationAwareSqlAdapterFactory(factory as never);
    const engine = await SchemaEngine.new({ datamodels: [[schemaPath, schema]] }, () => undefined, adapter);
    return new Migrator(engine, dir, schemaPath, schema, connections, filtersFor(provider));
  }

  /** Releases the engine and its connections (and with them the migration lock). */
  async close(): Promise<void> {
    this.engine.free();
    await Promise.all(this.connections.splice(0).map((c) => c.dispose().catch(() => undefined)));
  }

  /** Applies every pending committed migration; returns the names applied. */
  async deploy(): Promise<string[]> {
    const out = await this.engine.applyMigrations({
      migrationsList: migrationsList(this.dir),
      filters: this.filters,
    });
    return out.appliedMigrationNames as string[];
  }

  /** Writes a new migration for the changes between the migrations and the schema (dev only). */
  async create(name: string, now = new Date()): Promise<string | null> {
    await this.deploy();
    const diagnostic = await this.engine.devDiagnostic({
      migrationsList: migrationsList(this.dir),
      filters: this.filters,
    });
    if (diagnostic.action.tag === 'reset')
      throw new Error(`database drifted, reset needed: ${diagnostic.action.reason}`);
    const out = await this.engine.createMigration({
      draft: false,
      migrationName: name,
      migrationsList: migrationsList(this.dir),
      schema: { files: [{ path: this.schemaPath, content: this.schema }] },
      filters: this.filters,
    });
    if (!out.migrationScript) return null;
    const folder = writeMigration(this.dir, name, out.migrationScript, out.connectorType, now);
    await this.deploy();
    return folder;
  }
}

let engineClass: Promise<SchemaEngine> | undefined;

function loadSchemaEngine(): Promise<SchemaEngine> {
  engineClass ??= (async () => {
    const require = createRequire(__filename);
    const dir = dirname(require.resolve('@prisma/schema-engine-wasm/schema_engine_bg'));
    const bg = await import(join(dir, 'schema_engine_bg.js'));
    const wasmApi = (globalThis as { WebAssembly?: any }).WebAssembly;
    const wasm = new wasmApi.Module(readFileSync(join(dir, 'schema_engine_bg.wasm')));
    const instance = new wasmApi.Instance(wasm, { './schema_engine_bg.js': bg });
    bg.__wbg_set_wasm(instance.exports);
    (instance.exports as { __wbindgen_start?: () => void }).__wbindgen_start?.();
    return bg.SchemaEngine;
  })();
  return engineClass;
}
