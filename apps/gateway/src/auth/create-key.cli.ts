import 'reflect-metadata';
import { CommandLineError, loadConfig, parseCommandLine } from '@app/config';
import { CreateApiKeyRequest, parseDto, SCOPES } from '@app/contracts';
import { Logger } from '@app/observability';
import { connectMigrated } from '@app/persistence';
import { ApiKeyRepository } from './api-key.repository';
import { ApiKeysService } from './api-keys.service';

const COMMAND_LINE = {
  usage: 'usage: npm run keys:create -- <name> [scope ...] [--principal <p>] | --revoke-printed',
  help: [
    'Prints a new API key once (stdout; what was made on stderr). Without scopes the key gets every',
    `scope but admin; scopes: ${SCOPES.join(', ')}.`,
    '  --principal <p>    whose resources the key acts for (default: a principal of its own)',
    '  --revoke-printed   revoke the admin key printed at first start (once another admin key exists)',
  ].join('\n'),
  options: { principal: { type: 'string' }, 'revoke-printed': { type: 'boolean' } },
  positionals: { max: 1 + SCOPES.length },
} as const;

async function main(): Promise<void> {
  const line = parseCommandLine(process.argv.slice(2), COMMAND_LINE);
  if (line.help) return void process.stdout.write(`${line.text}\n`);
  if (line.values['revoke-printed']) {
    if (line.positionals.length || line.values.principal)
      throw new CommandLineError('--revoke-printed takes nothing else', COMMAND_LINE.usage);
    return revokePrinted();
  }
  if (!line.positionals.length) throw new CommandLineError('missing the key name', COMMAND_LINE.usage);
  const [name, ...scopes] = line.positionals;
  const principal = line.values.principal as string | undefined;
  const request = parseDto(
    CreateApiKeyRequest,
    {
      name,
      scopes: scopes.length ? scopes : SCOPES.filter((s) => s !== 'admin'),
      ...(principal ? { principal } : {}),
    },
    'key',
  );
  const config = loadConfig();
  const { db } = await connectMigrated(config.database.url);
  const logger = new Logger({ service: 'keys', level: 'warn', format: 'text' });
  const created = await new ApiKeysService(new ApiKeyRepository(db), config, logger).create(request);
  await db.$disconnect();
  process.stdout.write(`${created.key}\n`);
  process.stderr.write(
    `created key ${created.id} (${created.scopes.join(' ')}) for principal '${created.principal}'; it is not shown again\n`,
  );
}

async function revokePrinted(): Promise<void> {
  const config = loadConfig();
  const { db } = await connectMigrated(config.database.url);
  const logger = new Logger({ service: 'keys', level: 'warn', format: 'text' });
  try {
    const revoked = await new ApiKeysService(new ApiKeyRepository(db), config, logger).revokePrinted();
    process.stderr.write(
      revoked.length
        ? revoked
            .map((key) => `revoked the admin key printed at first start: ${key.id} (${key.prefix}…)\n`)
            .join('')
        : 'no admin key printed at first start is active; nothing to revoke\n',
    );
  } finally {
    await db.$disconnect();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`keys:create failed: ${(err as Error)?.message ?? String(err)}\n`);
  process.exit(1);
});
