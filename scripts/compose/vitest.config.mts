// The compose tier's tests (`npm run test:compose` runs them through scripts/compose/run.sh, which
// starts the Docker engine and builds the images first); `npm test` never includes them.
import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';
import base from '../../vitest.config.mts';

export default defineConfig({
  ...base,
  root: resolve(import.meta.dirname, '../..'),
  test: {
    ...base.test,
    projects: undefined,
    include: ['test/compose/**/*.compose.ts'],
    fileParallelism: false,
    // every wait inside is bounded on its own; these only stop a test that hangs
    testTimeout: 600_000,
    hookTimeout: 900_000,
  },
});
