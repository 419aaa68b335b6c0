import { defineConfig } from 'vitest/config';
import base from '../../vitest.config.mts';

// The web console's benchmark, never part of `npm test`: `npm run build`, then
// `npx vitest run --config bench/console/vitest.config.mts` (prints its section of docs/benchmarks.md).
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    // only this benchmark: none of the test tiers
    projects: undefined,
    include: ['bench/console/**/*.bench-run.ts'],
    testTimeout: 600_000,
    fileParallelism: false,
  },
});
