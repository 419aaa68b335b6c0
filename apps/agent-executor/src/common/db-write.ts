import type { Prisma } from '@app/persistence';

/**
 * A write one repository hands another so both land in one transaction. A function, because a
 * Prisma query runs once and a transaction may be retried.
 */
export type DbWrite = () => Prisma.PrismaPromise<unknown>;
