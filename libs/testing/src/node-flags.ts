import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The V8 flags every service starts with, from the one list (`deploy/node-flags.json`) that
 * `npm start`, the tests and the benchmarks read; the images' CMD carries the same flags.
 */
export function nodeFlags(repoRoot: string): string[] {
  return JSON.parse(readFileSync(join(repoRoot, 'deploy/node-flags.json'), 'utf8')) as string[];
}
