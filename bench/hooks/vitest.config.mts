import { defineConfig } from 'vitest/config';
import base from '../../vitest.config.mts';

// The hooks benchmark, never part of `npm test`:
// `npx vitest run --config bench/hooks/vitest.config.mts` (BENCH_WRITE=1 updates docs/benchmarks.md).
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    projects: undefined,
    include: ['bench/hooks/**/*.bench-run.ts'],
    testTimeout: 600_000,
    fileParallelism: false,
  },
});
