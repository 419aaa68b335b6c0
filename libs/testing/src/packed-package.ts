import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from './service-process';

const exec = promisify(execFile);

export interface PackedPackage {
  /** Absolute path of the tarball `npm pack` wrote. */
  tarball: string;
  /** The paths inside the tarball, relative to its package root. */
  files: string[];
}

/** `npm pack`s a package of the monorepo (its prepack builds it) into `destination`. */
export async function packPackage(packageDir: string, destination: string): Promise<PackedPackage> {
  const { stdout } = await exec('npm', ['pack', '--json', '--pack-destination', destination], {
    cwd: packageDir,
    maxBuffer: 64 * 1024 * 1024,
  });
  const [packed] = JSON.parse(stdout.slice(stdout.indexOf('['))) as {
    filename: string;
    files: { path: string }[];
  }[];
  return { tarball: join(destination, packed.filename), files: packed.files.map((f) => f.path) };
}

interface LockEntry {
  version?: string;
  resolved?: string;
  integrity?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  [key: string]: unknown;
}

interface PackageJson {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

/**
 * Installs a tarball into a fresh ES-module project `<project>/app`, offline: the tarball's own
 * dependencies come from npm's cache at the versions the monorepo's package-lock pins (a lockfile
 * is written for them, since the cache holds tarballs, not registry listings). Returns the app dir.
 */
export async function installPacked(packageDir: string, tarball: string, project: string): Promise<string> {
  const app = join(project, 'app');
  mkdirSync(app, { recursive: true });
  const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as PackageJson;
  const spec = `file:../${basename(tarball)}`;
  const root = { name: 'consumer', private: true, type: 'module', dependencies: { [manifest.name]: spec } };
  writeFileSync(join(app, 'package.json'), JSON.stringify(root, null, 2));
  writeFileSync(join(app, 'package-lock.json'), JSON.stringify(consumerLock(root, manifest, spec), null, 2));
  await exec('npm', ['ci', '--offline', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: app });
  return app;
}

/** Type-checks `source` (as check.ts) in `app` against the installed declarations alone. */
export async function typeCheckConsumer(
  app: string,
  source: string,
  compilerOptions: Record<string, unknown> = {},
): Promise<void> {
  writeFileSync(join(app, 'check.ts'), source);
  const options = {
    strict: true,
    noEmit: true,
    module: 'nodenext',
    target: 'es2023',
    lib: ['es2023', 'dom', 'dom.asynciterable'],
    types: [],
    skipLibCheck: false,
    ...compilerOptions,
  };
  writeFileSync(
    join(app, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: options, files: ['check.ts'] }),
  );
  await exec(process.execPath, [join(REPO_ROOT, 'node_modules/typescript/bin/tsc'), '-p', app], {
    cwd: app,
  }).catch((err: { stdout?: string }) => {
    throw new Error(`the packed declarations do not type-check:\n${err.stdout}`);
  });
}

function consumerLock(root: { name: string }, manifest: PackageJson, spec: string): object {
  const monorepo = JSON.parse(readFileSync(join(REPO_ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, LockEntry>;
  };
  const packages: Record<string, LockEntry> = {
    '': { name: root.name, dependencies: { [manifest.name]: spec } },
    [`node_modules/${manifest.name}`]: {
      version: manifest.version,
      resolved: spec,
      dependencies: manifest.dependencies,
      peerDependencies: manifest.peerDependencies,
      peerDependenciesMeta: manifest.peerDependenciesMeta,
    },
  };
  const visit = (from: string, name: string, optional: boolean) => {
    const path = locate(monorepo.packages, from, name);
    if (!path) {
      if (optional) return;
      throw new Error(`${name} (needed by ${from || manifest.name}) is not in the monorepo's package-lock`);
    }
    if (packages[path]) return;
    const { dev: _dev, devOptional: _devOptional, peer: _peer, ...entry } = monorepo.packages[path];
    packages[path] = entry;
    for (const [dep, isOptional] of needs(entry)) visit(path, dep, isOptional);
  };
  for (const [dep, isOptional] of needs(manifest)) visit('', dep, isOptional);
  return { name: root.name, lockfileVersion: 3, requires: true, packages };
}

/** A package's dependencies that npm installs, each with whether it may be missing. */
function needs(entry: LockEntry | PackageJson): [string, boolean][] {
  const e = entry as LockEntry;
  const peers = Object.keys(e.peerDependencies ?? {}).filter((p) => !e.peerDependenciesMeta?.[p]?.optional);
  return [
    ...Object.keys(e.dependencies ?? {}).map((d): [string, boolean] => [d, false]),
    ...Object.keys(e.optionalDependencies ?? {}).map((d): [string, boolean] => [d, true]),
    ...peers.map((d): [string, boolean] => [d, false]),
  ];
}

/** Node's lookup through the lockfile's paths: the nearest node_modules/<name> above `from`. */
function locate(packages: Record<string, LockEntry>, from: string, name: string): string | undefined {
  let dir = from;
  for (;;) {
    const candidate = dir ? `${dir}/node_modules/${name}` : `node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (!dir) return undefined;
    const at = dir.lastIndexOf('/node_modules/');
    dir = at < 0 ? '' : dir.slice(0, at);
  }
}
