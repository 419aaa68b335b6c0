// The image's runtime layer keeps what the services run and nothing else (deploy/Dockerfile
// runs this in its build stage after `npm prune --omit=dev`):
//   - npm keeps a dev package that a production package names as an optional peer (the prisma
//     CLI and its studio, typescript: ~250 MB) — `devOptional` in the lockfile; a true optional
//     dependency (a platform binary) is `optional` and stays;
//   - source maps (of the build and of the packages): nothing at run time reads them;
//   - the test helpers' build (dist/libs/testing).
import { existsSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** The lockfile paths npm keeps in a production install only for an optional peer of a production package. */
export function optionalPeerPaths(lock) {
  return Object.entries(lock.packages ?? {})
    .filter(([path, flags]) => path && flags.devOptional && !flags.optional)
    .map(([path]) => path);
}

/** Every `*.map` file under `dir`. */
export function sourceMaps(dir) {
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...sourceMaps(path));
    else if (entry.name.endsWith('.map')) found.push(path);
  }
  return found;
}

function sizeOf(path) {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(path).reduce((sum, name) => sum + sizeOf(join(path, name)), 0);
}

function remove(paths) {
  let bytes = 0;
  for (const path of paths) {
    bytes += sizeOf(path);
    rmSync(path, { recursive: true, force: true });
    // a scope folder (`node_modules/@swc`) left empty goes too
    const scope = dirname(path);
    if (basename(scope).startsWith('@') && existsSync(scope) && readdirSync(scope).length === 0)
      rmSync(scope, { recursive: true });
  }
  return bytes;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = process.argv[2] ?? '.';
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
  const mb = (bytes) => `${(bytes / 1e6).toFixed(0)} MB`;
  const peers = optionalPeerPaths(lock).map((p) => join(root, p));
  const freed = {
    peers: remove(peers),
    maps: remove(['dist', 'node_modules'].flatMap((d) => sourceMaps(join(root, d)))),
    testing: remove([join(root, 'dist/libs/testing')]),
  };
  process.stdout.write(
    `runtime layer: removed ${peers.length} optional-peer packages (${mb(freed.peers)}), source maps (${mb(freed.maps)}), test helpers (${mb(freed.testing)})\n`,
  );
}
