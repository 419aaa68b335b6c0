// The copy of dist a running `npm start` executes: data/run/<pid>/dist, removed when it exits (and,
// after a `kill -9`, by the next npm start).
import { cpSync, existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

/** Copies dist for this process and returns the copy's path; throws when there is no build. */
export function privateDist(root, pid = process.pid) {
  const source = join(root, 'dist');
  if (!existsSync(join(source, 'apps')))
    throw new Error('nothing is built: run npm start without --no-build');
  const runs = join(root, 'data', 'run');
  for (const entry of existsSync(runs) ? readdirSync(runs) : [])
    if (/^\d+$/.test(entry) && Number(entry) !== pid && !alive(Number(entry)))
      rmSync(join(runs, entry), { recursive: true, force: true });
  const copy = join(runs, String(pid), 'dist');
  rmSync(copy, { recursive: true, force: true });
  cpSync(source, copy, { recursive: true, filter: (path) => !path.endsWith('.tsbuildinfo') });
  process.once('exit', () => rmSync(join(runs, String(pid)), { recursive: true, force: true }));
  return copy;
}
