import { CommandLineError, loadConfig, maskUrl, parseCommandLine } from '@app/config';
import { Migrator } from './migrator';

/**
 * `npm run db:migrate` → apply pending migrations to the configured database (DATABASE_URL or the
 * YAML file's database.url: a SQLite file or PostgreSQL).
 * `npm run db:migrate -- create <name>` → write a new migration for both databases (development):
 * SQLite in a scratch file, PostgreSQL in a scratch database on DEV_POSTGRES_URL.
 */
const COMMAND_LINE = {
  usage: 'usage: npm run db:migrate [-- deploy] | npm run db:migrate -- create <snake_case_name>',
  help: [
    'deploy (the default): apply pending migrations to DATABASE_URL (npm start does this too).',
    'create <name>: write a new migration for SQLite and PostgreSQL (DEV_POSTGRES_URL), for development.',
  ].join('\n'),
  positionals: { max: 2 },
};

async function main(): Promise<void> {
  const line = parseCommandLine(process.argv.slice(2), COMMAND_LINE);
  if (line.help) return void console.log(line.text);
  const [command = 'deploy', name] = line.positionals;
  if (command === 'deploy' && name) throw new CommandLineError(`deploy takes no name`, COMMAND_LINE.usage);
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
  throw new CommandLineError(
    command === 'create' ? 'create needs a snake_case name' : `unknown command '${command}'`,
    COMMAND_LINE.usage,
  );
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(`db:migrate failed: ${maskUrl((err as Error)?.message ?? String(err))}`);
    process.exit(1);
  },
);
