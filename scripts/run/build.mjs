// Builds only when a source is newer than the last build, with the build's output on stderr, so a
// command piped into jq gets only its own output and repeated calls do not rebuild.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
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

/**
 * Builds when stale, one build at a time: the README starts the scripted LLM and npm start
 * together, and two builds writing dist at once would mix their files. A second caller waits for
 * the first (or for a lock whose process is gone), then builds only if still stale.
 */
export function buildIfStale(root) {
  if (!buildIsStale(root)) return false;
  const release = lock(join(root, 'data', '.build.lock'));
  try {
    if (!buildIsStale(root)) return false;
    build(root);
    return true;
  } finally {
    release();
  }
}

const LOCK_WAIT_MS = 10 * 60_000;

function lock(dir) {
  mkdirSync(join(dir, '..'), { recursive: true });
  const deadline = Date.now() + LOCK_WAIT_MS;
  let said = false;
  for (;;) {
    try {
      mkdirSync(dir);
      writeFileSync(join(dir, 'pid'), String(process.pid));
      return () => rmSync(dir, { recursive: true, force: true });
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
    }
    if (!holderAlive(dir)) {
      rmSync(dir, { recursive: true, force: true });
      continue;
    }
    if (Date.now() > deadline) throw new Error(`another build holds ${dir}`);
    if (!said) process.stderr.write('agentchassis: waiting for another build to finish\n');
    said = true;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
  }
}

function holderAlive(dir) {
  let pid;
  try {
    pid = Number(readFileSync(join(dir, 'pid'), 'utf8'));
  } catch {
    // Just made, its pid not written yet: alive, unless the lock is old.
    const made = statSync(dir, { throwIfNoEntry: false });
    return made !== undefined && Date.now() - made.mtimeMs < 5_000;
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}
