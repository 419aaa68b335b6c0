import { UnavailableError } from '@app/contracts';

/** A limit that cannot be checked is a 503 naming Redis, not a 500 (the caller may retry). */
export async function orUnavailable<T>(call: Promise<T>, what: string): Promise<T> {
  try {
    return await call;
  } catch (err) {
    throw new UnavailableError(`cannot check ${what}: Redis is unreachable (${(err as Error).message})`);
  }
}
