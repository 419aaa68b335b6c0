import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { optionalPeerPaths } from './prune-runtime.mjs';

const lock = JSON.parse(readFileSync(resolve(__dirname, '../../package-lock.json'), 'utf8')) as {
  packages: Record<string, { devOptional?: boolean; optional?: boolean; dev?: boolean }>;
};

describe("the runtime layer's prune", () => {
  const removed = optionalPeerPaths(lock);

  it('removes the build tools npm keeps only as optional peers of production packages', () => {
    expect(removed).toEqual(expect.arrayContaining(['node_modules/typescript', 'node_modules/prisma']));
  });

  it('keeps every production package and every true optional dependency (platform binaries)', () => {
    const kept = (path: string) => !removed.includes(path);
    for (const [path, flags] of Object.entries(lock.packages)) {
      if (path && !flags.dev && !flags.devOptional) expect(kept(path), path).toBe(true);
    }
    expect(kept(join('node_modules', 'sqlite-vec-linux-x64'))).toBe(true);
    expect(kept('node_modules/@prisma/client')).toBe(true);
  });
});
