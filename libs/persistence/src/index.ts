export type { Prisma } from './generated/sqlite/client';
export * from './migrations/database-url';
export { Migrator } from './migrations/migrator';
export * from './persistence.module';
export * from './prisma.service';
export * from './db-errors';
export * from './sql';
export * from './json-column';
