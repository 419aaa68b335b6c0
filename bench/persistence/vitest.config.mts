import { defineConfig } from 'vitest/config';
import base from '../../vitest.config.mts';

// The turn-writes benchmark, never part of `npm test`:
// `npx vitest run --config bench/persistence/vitest.config.mts` (prints its table).
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    projects: undefined,
    include: ['bench/persistence/**/*.bench-run.ts'],
    testTimeout: 600_000,
    fileParallelism: false,
  },
});
