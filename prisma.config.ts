// Prisma CLI configuration for the ordinary way (`npx prisma migrate deploy` with full internet).
// The database URL's scheme picks the schema and migrations: SQLite by default, PostgreSQL for scale.
import { defineConfig } from 'prisma/config';

const url = process.env.DATABASE_URL ?? 'file:./data/agentchassis.db';
const provider = /^postgres(ql)?:/.test(url) ? 'postgresql' : 'sqlite';

export default defineConfig({
  schema: `prisma/${provider}/schema.prisma`,
  migrations: { path: `prisma/${provider}/migrations` },
  datasource: { url },
});
