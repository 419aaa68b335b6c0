import { describe, expect, it } from 'vitest';
import { AppError, isErrorBody, serverGone, toAppError } from './errors';

describe('toAppError', () => {
  it('keeps a body in the platform shape, code and details', () => {
    const err = toAppError({ code: 'not_found', message: "run 'r1' not found", details: { id: 'r1' } });
    expect(err.toBody()).toEqual({ code: 'not_found', message: "run 'r1' not found", details: { id: 'r1' } });
  });

  it("does not take a driver's error for a body: its code is not one of the platform's", () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    expect(isErrorBody(refused)).toBe(false);
    const err = toAppError(refused);
    expect(err.code).toBe('unavailable');
    expect(err.message).not.toContain('5432');
  });

  it('calls a database Prisma cannot reach unavailable, and anything else unknown internal', () => {
    expect(toAppError({ code: 'P1001', message: "Can't reach database server" }).code).toBe('unavailable');
    const unknown = toAppError(Object.assign(new Error('secret detail'), { code: 'EWHATEVER' }));
    expect(unknown).toBeInstanceOf(AppError);
    expect(unknown.toBody()).toEqual({ code: 'internal', message: 'internal error' });
  });

  it("calls a connection PostgreSQL cut on shutting down unavailable, also inside Prisma's wrapper", () => {
    expect(toAppError(Object.assign(new Error('terminating connection'), { code: '57P01' })).code).toBe(
      'unavailable',
    );
    // What Prisma's driver adapter throws for a query on a connection PostgreSQL terminated.
    const wrapped = Object.assign(
      new Error('Database error. Code: `57P01`. Message: `terminating connection`'),
      {
        code: 'P2039',
        meta: { driverAdapterError: { cause: { kind: 'postgres', originalCode: '57P01' } } },
      },
    );
    expect(serverGone(wrapped)).toBe(true);
    expect(toAppError(wrapped).code).toBe('unavailable');
    const constraint = { code: 'P2039', meta: { driverAdapterError: { cause: { originalCode: '23514' } } } };
    expect(serverGone(constraint)).toBe(false);
  });

  it('calls a connection PostgreSQL dropped without a word (a crash, an immediate shutdown) unavailable', () => {
    // node-postgres's error for it: no code, only these words
    expect(toAppError(new Error('Connection terminated unexpectedly')).code).toBe('unavailable');
    expect(toAppError(new Error('Connection terminated unexpectedly, or so it says')).code).toBe('internal');
    const coded = Object.assign(new Error('Connection terminated unexpectedly'), { code: 'EWHATEVER' });
    expect(serverGone(coded)).toBe(false);
    expect(toAppError(new Error('Client has encountered a connection error and is not queryable')).code).toBe(
      'unavailable',
    );
  });

  it("calls Prisma's codes for a server unreachable, timed out, closed or out of connections unavailable", () => {
    for (const code of ['P1001', 'P1008', 'P1017', 'P2037', '53300'])
      expect(toAppError(Object.assign(new Error('adapter'), { code })).code, code).toBe('unavailable');
    expect(toAppError(Object.assign(new Error('unique'), { code: 'P2002' })).code).toBe('internal');
  });
});
