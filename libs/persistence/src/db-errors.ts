/**
 * Which constraint a failed write broke, however it is reported: P2002/P2003 for a Prisma model
 * query, P2010 with the driver adapter's error kind for a raw one, the driver's own code for a
 * statement run on the driver (`SqlWriter`): better-sqlite3's SQLITE_CONSTRAINT_*, PostgreSQL's SQLSTATE.
 */
export function constraintViolation(err: unknown): 'unique' | 'foreign_key' | undefined {
  const { code, meta } = (err ?? {}) as {
    code?: string;
    meta?: { driverAdapterError?: { cause?: { kind?: string } } };
  };
  if (code === 'P2002' || code === '23505') return 'unique';
  if (code === 'P2003' || code === '23503') return 'foreign_key';
  if (code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === 'SQLITE_CONSTRAINT_UNIQUE') return 'unique';
  if (code === 'SQLITE_CONSTRAINT_FOREIGNKEY') return 'foreign_key';
  if (code !== 'P2010') return undefined;
  const kind = meta?.driverAdapterError?.cause?.kind;
  if (kind === 'UniqueConstraintViolation') return 'unique';
  if (kind === 'ForeignKeyConstraintViolation') return 'foreign_key';
  return undefined;
}
