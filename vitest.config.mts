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
    include: ['apps/**/*.spec.ts', 'libs/**/*.spec.ts', 'test/**/*.spec.ts', 'scripts/**/*.spec.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    setupFiles: ['reflect-metadata'],
  },
});
