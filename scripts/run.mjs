// The launcher behind `npm start`, `npm test`, `npm run cli`, `keys:create` and the other tools:
//   node scripts/run.mjs [--build] [<script> [args...]]
// It installs from the lockfile when node_modules is missing or stale, moves onto the project's
// Node (24, installed by `npm ci` from the `node` package) when npm was started by an older one,
// builds only when a source changed since the last build, then runs <script> in this process.
// Everything but the script's own output goes to stderr: `npm run -s cli -- … --json | jq` works.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildIfStale } from './run/build.mjs';
import { ensureInstalled } from './run/install.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const PROJECT_NODE_MAJOR = 24;
const projectNode = join(root, 'node_modules', '.bin', 'node');

function fail(message) {
  process.stderr.write(`agentchassis: ${message}\n`);
  process.exit(1);
}

/** Runs this launcher again on the project's Node, passing signals on, and exits as it exits. */
function onProjectNode(argv) {
  const child = spawn(projectNode, [fileURLToPath(import.meta.url), ...argv], { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.once('exit', (code, signal) => {
    if (signal) process.kill(process.pid, signal);
    process.exit(code ?? 1);
  });
}

const argv = process.argv.slice(2);
const wantsBuild = argv[0] === '--build';
const [script, ...args] = wantsBuild ? argv.slice(1) : argv;
try {
  ensureInstalled(root);
} catch {
  fail('npm ci failed (see above)');
}
if (Number(process.versions.node.split('.')[0]) < PROJECT_NODE_MAJOR && existsSync(projectNode)) {
  onProjectNode(argv);
} else {
  if (wantsBuild) {
    try {
      buildIfStale(root);
    } catch {
      fail('the build failed (see above)');
    }
  }
  if (script) {
    const path = resolve(root, script);
    process.argv = [process.execPath, path, ...args];
    await import(pathToFileURL(path).href);
  }
}
