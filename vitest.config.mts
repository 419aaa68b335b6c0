import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import swc from 'unplugin-swc';
import { defineConfig } from 'vitest/config';

const libs = readdirSync(resolve(import.meta.dirname, 'libs'));

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
        },
      },
      {
        extends: true,
        test: {
          name: 'system',
          include: ['test/**/*.spec.ts'],
          // Its files start their own servers and processes and stop them in afterAll; they share
          // their worker's imports (the official clients, Prisma, playwright-core) as the other tiers
          // do: forking and importing afresh for each of its ~70 files was ~55 s of the suite's time.
          // No file sets an environment variable, mocks a module or spies on one (test/ holds none).
          isolate: false,
        },
      },
    ],
  },
});
