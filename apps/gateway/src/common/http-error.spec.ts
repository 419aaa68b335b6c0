import { describe, expect, it } from 'vitest';
import { toHttpError } from './http-error';

describe('toHttpError', () => {
  // What every query in flight gets from node-postgres (through Prisma's adapter) when PostgreSQL
  // stops: the gateway's own queries (keys, idempotency) answered 500 in the cluster's restart case.
  it('answers a dropped database connection 503 unavailable, not 500', () => {
    const dropped = Object.assign(new Error('Connection terminated unexpectedly'), {
      clientVersion: '7.10.1',
    });
    expect(toHttpError(dropped)).toEqual({
      status: 503,
      body: {
        code: 'unavailable',
        message: 'a server the platform depends on cannot be reached; try again shortly',
      },
    });
    expect(toHttpError(Object.assign(new Error('terminating connection'), { code: '57P01' })).status).toBe(
      503,
    );
  });

  it('answers anything else unknown 500 internal, naming nothing of it', () => {
    expect(toHttpError(new Error('secret detail'))).toEqual({
      status: 500,
      body: { code: 'internal', message: 'internal error' },
    });
  });
});
