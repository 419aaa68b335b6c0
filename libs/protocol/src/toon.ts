import { loadModule } from './load-module';

type Toon = typeof import('@toon-format/toon');
let toon: Toon | undefined;

// @toon-format/toon is loaded at the first encode or decode (load-module.ts): a process holding
// the protocol and no result or call body yet does not carry it.
function loadedToon(): Toon {
  toon ??= loadModule<Toon>('@toon-format/toon');
  return toon;
}

export const encodeToon: Toon['encode'] = (input, options) => loadedToon().encode(input, options);
export const decodeToon: Toon['decode'] = (input, options) => loadedToon().decode(input, options);
export const rawString: Toon['rawString'] = (value) => loadedToon().rawString(value);
