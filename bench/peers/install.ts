// The peers' own install: `npm ci` in bench/peers (its own package.json and lockfile), run by the
// benches that need a peer, never by the root `npm ci`. Skipped when node_modules matches the lockfile.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PEERS_DIR = dirname(fileURLToPath(import.meta.url));
const STAMP = join(PEERS_DIR, 'node_modules', '.installed-lock');

/** Installs the peers when their lockfile changed since the last install; returns a `require` from their folder. */
export function ensurePeers(): NodeJS.Require {
  const lock = readFileSync(join(PEERS_DIR, 'package-lock.json'), 'utf8');
  if (!existsSync(STAMP) || readFileSync(STAMP, 'utf8') !== lock) {
    process.stderr.write('installing the peers in bench/peers (npm ci)…\n');
    execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: PEERS_DIR,
      stdio: 'inherit',
    });
    writeFileSync(STAMP, lock);
  }
  return createRequire(join(PEERS_DIR, 'package.json'));
}
