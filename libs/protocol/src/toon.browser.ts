import { decode, encode, rawString as raw } from '@toon-format/toon';
import type { ToonDecoding, ToonEncoding } from './toon';

// TOON in the web console: apps/console/vite.config.mts builds this module in place of ./toon.ts. A
// browser has no synchronous loader for toon.ts's first-use load, and a page that shows a run's
// results decodes them at once anyway. The same signatures as toon.ts.

export function encodeToon(input: unknown, options?: ToonEncoding): string {
  return encode(input, options);
}

export function decodeToon(input: string, options?: ToonDecoding): unknown {
  return decode(input, options);
}

export function rawString(value: string): unknown {
  return raw(value);
}
