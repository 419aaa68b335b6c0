import { loadConfig, maskUrl } from '@app/config';
import { Migrator } from './migrator';

/**
 * `npm run db:migrate` → apply pending migrations to the configured database (DATABASE_URL or the
 * YAML file's database.url: a SQLite file or PostgreSQL).
 * `npm run db:migrate -- create <name>` → write a new migration for both databases (development):
 * SQLite in a scratch file, PostgreSQL in a scratch database on DEV_POSTGRES_URL.
 */
async function main(): Promise<void> {
  const [command = 'deploy', name] = process.argv.slice(2);
  const { url, dev_postgres_url: devPostgresUrl } = loadConfig().database;
  if (command === 'deploy') {
    const migrator = await Migrator.open(url);
    const applied = await migrator.deploy();
    await migrator.close();
    console.log(
      applied.length ? `applied ${applied.join(', ')} to ${maskUrl(url)}` : `${maskUrl(url)} is up to date`,
    );
    return;
  }
  if (command === 'create' && name && /^[a-z0-9_]+$/.test(name)) {
    const now = new Date();
    const targets = [`file:./data/dev-migrate-${now.getTime()}.db`, devPostgresUrl];
    for (const target of targets) {
      const migrator = await Migrator.open(target);
      const folder = await migrator.create(name, now);
      await migrator.close();
      console.log(folder ? `created ${folder}` : `no changes for ${target.split(':')[0]}`);
    }
    return;
  }
  throw new Error('usage: db:migrate [deploy] | db:migrate create <snake_case_name>');
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(`db:migrate failed: ${maskUrl((err as Error)?.message ?? String(err))}`);
    process.exit(1);
  },
);
