import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

describe('prisma schemas', () => {
  it('are rendered from prisma/models.prisma and up to date', () => {
    expect(() =>
      execFileSync(process.execPath, ['scripts/prisma-schemas.mjs', '--check'], { stdio: 'pipe' }),
    ).not.toThrow();
  });
});
