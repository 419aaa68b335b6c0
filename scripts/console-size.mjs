// The gzipped size of the JavaScript the console's page loads on first paint (its entry script and
// the modules it preloads), checked against the budget; run after `vite build`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const BUDGET_BYTES = 150 * 1024;
const dir = join(import.meta.dirname, '..', 'dist', 'console');
const html = readFileSync(join(dir, 'index.html'), 'utf8');
const files = [
  ...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="\/([^"]+\.js)"/g),
].map((m) => m[1]);
if (files.length === 0) throw new Error('dist/console/index.html loads no script');
const gzipped = files.reduce(
  (sum, file) => sum + gzipSync(readFileSync(join(dir, file)), { level: 9 }).length,
  0,
);
const kb = (gzipped / 1024).toFixed(1);
console.log(
  `console: ${files.length} script(s) on first paint, ${kb} KB gzipped (budget ${BUDGET_BYTES / 1024} KB)`,
);
if (gzipped > BUDGET_BYTES) {
  console.error(`console: over budget by ${((gzipped - BUDGET_BYTES) / 1024).toFixed(1)} KB`);
  process.exit(1);
}
