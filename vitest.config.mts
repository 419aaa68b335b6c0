import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import swc from 'unplugin-swc';
import { defineConfig } from 'vitest/config';

/**
 * System files that assert no timing (what a door answers to its official client, what a manifest
 * holds): they keep their answers beside the cluster's load on the other core. Each starts its own
 * servers on free ports (NATS, the services; a fresh PostgreSQL database). Sized so that this worker,
 * after the unit and integration tiers, ends about when the cluster file does (~4 minutes).
 */
const BESIDE_THE_CLUSTER = [
  'test/{a2a,ag-ui,anthropic,openai,mcp,routing,hooks,memory,deploy,docs}/**/*.spec.ts',
];
const libs = readdirSync(resolve(import.meta.dirname, 'libs'));

/** The first phase: two workers. */
const BESIDE = { maxWorkers: 2, sequence: { groupOrder: 0 } };

export default defineConfig({
  plugins: [
    swc.vite({
      tsconfigFile: false,
      swcrc: false,
      module: { type: 'es6' },
      jsc: {
        target: 'es2023',
        parser: { syntax: 'typescript', decorators: true },
        transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
        keepClassNames: true,
      },
    }),
  ],
  resolve: {
    alias: libs.map((lib) => ({
      find: `@app/${lib}`,
      replacement: resolve(import.meta.dirname, `libs/${lib}/src`),
    })),
  },
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    setupFiles: ['reflect-metadata'],
    // Three tiers, all run by `npm test`: `npm run test:unit` is the loop to run on every change.
    // Two phases: the system tier's files run one at a time (many hold timings: leases, restarts,
    // faults), after a first phase of two workers: one runs test/cluster (four minutes, mostly load
    // windows on clusters of its own), the other the unit and integration tiers and the system files
    // that time nothing (`BESIDE_THE_CLUSTER`). Vitest runs the projects of one `groupOrder` together,
    // with one worker count, and starts them in the order of their names: `cluster` first.
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['apps/**/*.spec.ts', 'libs/**/*.spec.ts', 'scripts/**/*.spec.ts'],
          exclude: ['**/*.int.spec.ts', '**/node_modules/**'],
          // Unit tests share nothing but the modules they import (no servers, no sockets: see the
          // setup file), so a worker keeps its imports from one file to the next: importing was
          // half of the tier's time.
          isolate: false,
          setupFiles: ['reflect-metadata', './libs/testing/src/no-sockets.setup.ts'],
          ...BESIDE,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['apps/**/*.int.spec.ts', 'libs/**/*.int.spec.ts', 'scripts/**/*.int.spec.ts'],
          // Its files share a worker's imports as the unit tier's do (Nest, Prisma, the bus: about
          // a third of the tier's time went to importing them again for each file). No file sets an
          // environment variable or leaves a spy on a shared module, and the ones reading the shared
          // metrics registry read differences, so the tier passes in any order (run with shuffled files).
          isolate: false,
          ...BESIDE,
        },
      },
      { extends: true, test: { name: 'cluster', include: ['test/cluster/**/*.spec.ts'], ...BESIDE } },
      { extends: true, test: { name: 'system-beside', include: BESIDE_THE_CLUSTER, ...BESIDE } },
      {
        extends: true,
        test: {
          name: 'system',
          include: ['test/**/*.spec.ts'],
          exclude: ['test/cluster/**', ...BESIDE_THE_CLUSTER, '**/node_modules/**'],
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
