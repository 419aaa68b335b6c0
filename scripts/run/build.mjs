// Builds only when a source is newer than the last build, with the build's output on stderr, so a
// command piped into jq gets only its own output and repeated calls do not rebuild.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** What the build reads: sources, schemas, the build's own configuration and the lockfile. */
const INPUTS = ['apps', 'libs', 'prisma', 'package.json', 'package-lock.json', '.swcrc', 'tsconfig.json'];
/** Output and what the build writes itself (the Prisma clients) or never reads (tests). */
const SKIPPED = new Set(['node_modules', 'dist', 'generated']);
export const BUILD_STAMP = join('dist', '.built');

function newestUnder(path, after) {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return false;
  if (!stat.isDirectory()) return stat.mtimeMs > after;
  return readdirSync(path, { withFileTypes: true }).some(
    (entry) =>
      !SKIPPED.has(entry.name) &&
      !entry.name.endsWith('.spec.ts') &&
      newestUnder(join(path, entry.name), after),
  );
}

/** Whether dist is older than a source: no stamp, or an input changed after the last build. */
export function buildIsStale(root) {
  const stamp = statSync(join(root, BUILD_STAMP), { throwIfNoEntry: false });
  if (!stamp) return true;
  return INPUTS.some((input) => newestUnder(join(root, input), stamp.mtimeMs));
}

/** `npm run build`, its output on stderr; stamps dist when it succeeds. Throws when it fails. */
export function build(root) {
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: ['ignore', 2, 2] });
  if (existsSync(join(root, 'dist'))) writeFileSync(join(root, BUILD_STAMP), `${new Date().toISOString()}\n`);
}

export function buildIfStale(root) {
  if (!buildIsStale(root)) return false;
  build(root);
  return true;
}
