/**
 * Which constraint a failed write broke, however Prisma reports it: P2002/P2003 for a model query,
 * P2010 with the driver adapter's error kind for a raw one.
 */
export function constraintViolation(err: unknown): 'unique' | 'foreign_key' | undefined {
  const { code, meta } = (err ?? {}) as {
    code?: string;
    meta?: { driverAdapterError?: { cause?: { kind?: string } } };
  };
  if (code === 'P2002') return 'unique';
  if (code === 'P2003') return 'foreign_key';
  if (code !== 'P2010') return undefined;
  const kind = meta?.driverAdapterError?.cause?.kind;
  if (kind === 'UniqueConstraintViolation') return 'unique';
  if (kind === 'ForeignKeyConstraintViolation') return 'foreign_key';
  return undefined;
}
