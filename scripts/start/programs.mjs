// The installed programs npm start and npm run cluster run (Debian's packages), found on their usual
// path or on PATH.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** The program's path on PATH, or undefined when it is not installed. */
export function which(command) {
  try {
    return execFileSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' }).trim();
  } catch {
    return undefined;
  }
}

/** `path` if it exists, else `name` on PATH; throws naming the package to install. */
export function requireBinary(path, name, pkg) {
  const found = existsSync(path) ? path : which(name);
  if (!found) throw new Error(`the cluster needs ${name}: apt-get install ${pkg}`);
  return found;
}
