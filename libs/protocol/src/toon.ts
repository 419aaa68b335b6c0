import { loadModule } from './load-module';

type Toon = typeof import('@toon-format/toon');
let toon: Toon | undefined;

// @toon-format/toon is loaded at the first encode or decode (load-module.ts): a process holding
// the protocol and no result or call body yet does not carry it.
function loadedToon(): Toon {
  toon ??= loadModule<Toon>('@toon-format/toon');
  return toon;
}

// The signatures below are the protocol's own, not TOON's: the typed client's package ships the
// protocol's declarations without TOON (libs/client's build refuses a declaration that imports a
// package it does not depend on).

/** How the protocol writes TOON: the part of TOON's encoding options it uses. */
export interface ToonEncoding {
  /** Spaces a level. */
  indentSize?: number;
  delimiter?: ',' | '\t';
  /** Stands in for a value as it is written; a `rawString` is written as it is. */
  replacer?: (key: string, value: unknown) => unknown;
}

/** How the protocol reads TOON: the part of TOON's decoding options it uses. */
export interface ToonDecoding {
  indentSize?: number;
  /** Off: a declared row count that differs from the rows present is not an error. */
  strict?: boolean;
}

export function encodeToon(input: unknown, options?: ToonEncoding): string {
  return loadedToon().encode(input, options);
}

export function decodeToon(input: string, options?: ToonDecoding): unknown {
  return loadedToon().decode(input, options);
}

/** Text TOON writes as it is, unquoted (a replacer's answer). */
export function rawString(value: string): unknown {
  return loadedToon().rawString(value);
}
