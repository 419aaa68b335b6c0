// Generates the Prisma client of each database unless it is already current for its schema.
// PRISMA_SCHEMA_ENGINE_BINARY=/bin/false: `generate` needs no schema engine, and this stops the CLI
// from trying to download one (which fails offline). Works the same with full internet.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const prismaCli = join(root, 'node_modules/prisma/build/index.js');

for (const provider of ['sqlite', 'postgresql']) {
  const schema = join(root, 'prisma', provider, 'schema.prisma');
  const out = join(root, 'libs/persistence/src/generated', provider);
  const stamp = join(out, '.schema-hash');
  const hash = createHash('sha256')
    .update(readFileSync(schema))
    .update(readFileSync(join(root, 'package-lock.json')))
    .digest('hex');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === hash) continue;
  execFileSync(process.execPath, [prismaCli, 'generate', '--schema', schema], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: '/bin/false', PRISMA_HIDE_UPDATE_MESSAGE: '1' },
  });
  writeFileSync(stamp, hash);
  console.log(`generated the ${provider} Prisma client`);
}
