import 'reflect-metadata';
import { loadConfig } from '@app/config';
import { CreateApiKeyRequest, parseDto, SCOPES } from '@app/contracts';
import { Logger } from '@app/observability';
import { connectMigrated } from '@app/persistence';
import { ApiKeyRepository } from './api-key.repository';
import { ApiKeysService } from './api-keys.service';

/**
 * `npm run keys:create -- <name> [scope ...] [--principal <p>]` prints a new API key once.
 * Without scopes the key gets every scope but admin. `npm run keys:create -- --revoke-printed`
 * revokes the admin key printed at first start instead (once another admin key exists).
 */
async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.includes('--revoke-printed')) return revokePrinted();
  const at = args.indexOf('--principal');
  const principal = at >= 0 ? args.splice(at, 2)[1] : undefined;
  const [name, ...scopes] = args;
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
