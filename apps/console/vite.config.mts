import { resolve } from 'node:path';
import { defineConfig } from 'vite';

const root = import.meta.dirname;

/** The web console's build: `dist/console`, hashed file names under `assets/`, served by the gateway. */
export default defineConfig({
  root,
  base: '/',
  publicDir: false,
  resolve: {
    alias: {
      '@app/client': resolve(root, '../../libs/client/src'),
      '@app/protocol': resolve(root, '../../libs/protocol/src'),
      '@app/retry': resolve(root, '../../libs/retry/src'),
    },
  },
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: resolve(root, '../../dist/console'),
    emptyOutDir: true,
    assetsDir: 'assets',
    target: 'es2022',
    // the polyfill would be inline script, which the console's Content-Security-Policy forbids
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
    // libs/protocol is pure (no module does anything when loaded): what the console does not use of
    // it (the parameter validator and its ajv, the tokenizer) is left out of the bundle
    rollupOptions: { treeshake: { moduleSideEffects: (id: string) => !id.includes('/libs/protocol/') } },
  },
});
