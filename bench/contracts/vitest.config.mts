import { defineConfig } from 'vitest/config';
import base from '../../vitest.config.mts';

// The request-validation microbenchmark, never part of `npm test` (DTO decorators need vitest's
// transform, not Node's type stripping): `npx vitest run --config bench/contracts/vitest.config.mts`.
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    projects: undefined,
    include: ['bench/contracts/**/*.bench-run.ts'],
    testTimeout: 600_000,
  },
});
