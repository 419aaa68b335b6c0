import { defineConfig } from 'vitest/config';
import base from '../../vitest.config.mts';

// The scheduler benchmark, never part of `npm test`: `npm run build`, then
// `npx vitest run --config bench/scheduler/vitest.config.mts` (BENCH_WRITE=1 updates docs/benchmarks.md).
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    projects: undefined,
    include: ['bench/scheduler/**/*.bench-run.ts'],
    testTimeout: 600_000,
    fileParallelism: false,
  },
});
