/**
 * Loads a package at its first use, synchronously (as encoding, counting and validating are), from
 * CommonJS (the build) and from ESM (Node's type stripping) alike. What the protocol needs only once
 * it is used (the tokenizer's tables, ajv, TOON) is then not carried by a process that holds it and
 * has not used it yet, such as an idle embedded agent (docs/benchmarks.md).
 */
export function loadModule<T>(id: string): T {
  const { createRequire } = process.getBuiltinModule('node:module');
  return createRequire(typeof __filename === 'string' ? __filename : `${process.cwd()}/`)(id) as T;
}
