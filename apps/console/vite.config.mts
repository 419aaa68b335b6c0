import { resolve } from 'node:path';
import { defineConfig } from 'vite';

const root = import.meta.dirname;

/** The web console's build: `dist/console`, hashed file names under `assets/`, served by the gateway. */
export default defineConfig({
  root,
  base: '/',
  publicDir: false,
  resolve: {
    alias: [
      { find: '@app/client', replacement: resolve(root, '../../libs/client/src') },
      { find: '@app/protocol', replacement: resolve(root, '../../libs/protocol/src') },
      { find: '@app/retry', replacement: resolve(root, '../../libs/retry/src') },
      // libs/protocol loads TOON at its first use through Node's require (toon.ts); in the browser its
      // modules import TOON itself (toon.browser.ts). No other module of the console imports `./toon`.
      { find: /^\.\/toon$/, replacement: resolve(root, '../../libs/protocol/src/toon.browser.ts') },
    ],
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
