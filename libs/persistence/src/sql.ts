// Prisma's SQL template helpers, for the few hot writes done as raw statements. The same text runs
// on SQLite and PostgreSQL: quoted identifiers, placeholders per provider, JSON as text.
export { join as sqlJoin, raw as sqlRaw, sqltag as sql } from '@prisma/client/runtime/client';
export { openSqlWriter, prismaWriter, type Sql, type SqlWriter } from './sql-writer';
