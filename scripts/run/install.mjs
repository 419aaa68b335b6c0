// `npm ci` when node_modules is missing or does not match package-lock.json, so a fresh clone
// needs no install step. Runs on the Node that bootstraps npm (20 or later), before Node 24 is installed.
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Why node_modules does not hold what package-lock.json asks for, or undefined when it does: npm
 * records what it installed in node_modules/.package-lock.json; every package the lockfile needs
 * on this machine (optional ones may be for another platform) must be there at the same version.
 */
export function installProblem(root) {
  const hidden = join(root, 'node_modules', '.package-lock.json');
  if (!existsSync(join(root, 'node_modules'))) return 'node_modules is missing';
  if (!existsSync(hidden)) return 'node_modules was not installed by npm ci';
  const wanted = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')).packages ?? {};
  const installed = JSON.parse(readFileSync(hidden, 'utf8')).packages ?? {};
  for (const [path, entry] of Object.entries(wanted)) {
    if (path === '' || entry.optional) continue;
    const have = installed[path];
    if (!have) return `${path} is missing`;
    if (entry.version !== undefined && have.version !== entry.version)
      return `${path} is ${have.version}, package-lock.json asks for ${entry.version}`;
  }
  return undefined;
}

/**
 * Installs from the lockfile when needed, with npm's output on stderr (stdout belongs to the tool).
 * A node_modules that is a link (a git worktree sharing another checkout's) is never reinstalled
 * through: that would rewrite the other checkout's packages under it.
 */
export function ensureInstalled(root, { log = (line) => process.stderr.write(`${line}\n`) } = {}) {
  const problem = installProblem(root);
  if (!problem) return false;
  const modules = join(root, 'node_modules');
  if (existsSync(modules) && lstatSync(modules).isSymbolicLink()) {
    log(
      `agentchassis: ${problem}, but node_modules links to ${realpathSync(modules)}: not reinstalling ` +
        'through the link (run npm ci there)',
    );
    return false;
  }
  log(`agentchassis: ${problem}: npm ci`);
  execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: ['ignore', 2, 2] });
  return true;
}
