import { BadRequestError, IDEMPOTENCY_KEY_PATTERN } from '@app/contracts';

/** The `Idempotency-Key` header, if sent: 1 to 255 visible ASCII characters. */
export function idempotencyKeyOf(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (!IDEMPOTENCY_KEY_PATTERN.test(header))
    throw new BadRequestError('Idempotency-Key must be 1 to 255 visible ASCII characters');
  return header;
}
