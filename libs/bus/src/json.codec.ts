import { BadRequestError } from '@app/contracts';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function encodeJson(value: unknown): Uint8Array {
  return value === undefined ? new Uint8Array() : encoder.encode(JSON.stringify(value));
}

export function decodeJson(bytes: Uint8Array): unknown {
  if (bytes.length === 0) return undefined;
  try {
    return JSON.parse(decoder.decode(bytes));
  } catch {
    throw new BadRequestError('message body is not valid JSON');
  }
}
