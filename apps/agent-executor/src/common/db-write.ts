import type { Sql } from '@app/persistence';

/** A write one repository hands another so both land in one transaction (`SqlWriter`). */
export type DbWrite = Sql;
