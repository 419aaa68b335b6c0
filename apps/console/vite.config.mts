import { resolve } from 'node:path';
import { defineConfig } from 'vite';

const root = import.meta.dirname;

/** The web console's build: `dist/console`, hashed file names under `assets/`, served by the gateway. */
export default defineConfig({
  root,
  base: '/',
  publicDir: false,
  resolve: { alias: { '@app/client': resolve(root, '../../libs/client/src') } },
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: resolve(root, '../../dist/console'),
    emptyOutDir: true,
    assetsDir: 'assets',
    target: 'es2022',
    // the polyfill would be inline script, which the console's Content-Security-Policy forbids
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
  },
});
