import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

export interface NetworkIsolation {
  isolated: boolean;
  /** Prepended to the sandbox's command line, e.g. `['/usr/bin/unshare', '-n']`. */
  prefix: string[];
  detail: string;
}

const UNSHARE = ['/usr/bin/unshare', '/bin/unshare', '/usr/sbin/unshare'];
const ATTEMPTS = [['-n'], ['-r', '-n']];

/**
 * Node 24 has no network permission, so a sandbox gets its own empty network namespace where the
 * OS allows it (`unshare -n` as root, `unshare -r -n` with user namespaces). Probed once at start.
 */
export async function probeNetworkIsolation(): Promise<NetworkIsolation> {
  if (process.platform !== 'linux')
    return notIsolated(`network namespaces need Linux (this is ${process.platform})`);
  const unshare = UNSHARE.find((path) => existsSync(path));
  if (!unshare) return notIsolated('unshare(1) is not installed (util-linux)');
  for (const flags of ATTEMPTS) {
    if (await succeeds(unshare, [...flags, process.execPath, '-e', '0'])) {
      return {
        isolated: true,
        prefix: [unshare, ...flags],
        detail: `each sandbox has an empty network namespace (unshare ${flags.join(' ')})`,
      };
    }
  }
  return notIsolated(
    'unshare -n is not permitted here (it needs root, CAP_SYS_ADMIN or unprivileged user namespaces)',
  );
}

function notIsolated(reason: string): NetworkIsolation {
  return { isolated: false, prefix: [], detail: reason };
}

function succeeds(command: string, args: string[]): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env: {}, stdio: 'ignore' });
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('error', () => resolve(false));
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code === 0);
    });
  });
}
